import Glibc

/// The daemon's limit on open descriptors.
public enum DescriptorLimit {
    /// Raises the soft limit on open descriptors to the hard one, and answers the soft limit after.
    ///
    /// The daemon holds two pipes and an eventfd per running `interval: persist` command, two descriptors per held bar
    /// file, and a few per provider call; with the usual soft limit of 1,024 (systemd's default for services) a config
    /// of a few hundred persist widgets ran out, and every write and every reopening of the FIFO failed from then on.
    /// The hard limit is the administrator's; the soft one is a default meant for programs that use `select`, which
    /// widgetd does not (its loop and its commands' reads use `poll`).
    @discardableResult
    public static func raiseToHard() -> Int {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resource, &raised) == 0 { return Int(clamping: raised.rlim_cur) }
        }
        return Int(clamping: limit.rlim_cur)
    }
}
