import Providers

/// The store stays open while store reloads wait for its thread (docs/PERFORMANCE.md, "Idle RSS").
///
/// Store reloads run one at a time (`ReloadLanes.store`), each holding the store from its queueing to its end
/// (`ProviderRunner.start`), so without more the store would close, and libsqlite3 unload, between one reload's end
/// and the next one's start: a load of the library per read in a burst (start-up, `reload all`, a click that
/// reloads every widget of a kind). The daemon holds it while reloads wait behind another, and lets go once none
/// waits, so an idle daemon holds neither the store nor SQLite.
extension Daemon {
    /// Takes the hold when store reloads wait behind another call (or will, after the next is handed out); gives it
    /// back, on the store's thread, once none waits.
    func holdStoreWhileReloadsWait() {
        let wanted = reloads.wantsStoreHeld(holding: storeHold != nil)
        if storeHold == nil {
            if wanted { storeHold = runner.holdStore() }
        } else if !wanted, let hold = storeHold {
            storeHold = nil
            // After the calls already queued there, so the last reload still finds the store open.
            runner.release(hold)
        }
    }
}
