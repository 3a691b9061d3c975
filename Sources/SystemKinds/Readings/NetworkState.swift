/// The links, addresses and default routes the kernel has told of: built from a dump, kept current by each
/// rtnetlink message after it. Pure: `apply` takes a message, the queries take nothing else.
public struct NetworkState: Sendable, Hashable {
    public private(set) var links: [Int32: NetworkLink] = [:]
    public private(set) var addresses: [NetworkAddress] = []
    public private(set) var defaultRoutes: [DefaultRoute] = []

    public init() {}

    /// The state after `message`; a message about something unknown (an address removed twice) changes nothing.
    public mutating func apply(_ message: RouteMessage) {
        switch message {
        case .link(let link): links[link.index] = link
        case .linkRemoved(let index):
            links[index] = nil
            addresses.removeAll { $0.index == index }
            defaultRoutes.removeAll { $0.interfaceIndex == index }
        case .address(let address):
            if !addresses.contains(where: { $0.sameAddress(as: address) }) { addresses.append(address) }
        case .addressRemoved(let address): addresses.removeAll { $0.sameAddress(as: address) }
        case .defaultRoute(let route): if !defaultRoutes.contains(route) { defaultRoutes.append(route) }
        case .defaultRouteRemoved(let route): defaultRoutes.removeAll { $0 == route }
        case .done, .error: break
        }
    }

    public func link(named name: String) -> NetworkLink? {
        links.values.first { $0.name == name }
    }

    /// The interface a widget without `interface:` shows: the one the default route leaves by (the lowest metric,
    /// IPv4 before IPv6), else the first running interface that is not loopback, else the first that is not loopback
    /// (shown as down), by index, the order `ip link` lists them in.
    public var defaultLink: NetworkLink? {
        let routes = defaultRoutes.sorted {
            ($0.priority, $0.family == .ipv4 ? 0 : 1) < ($1.priority, $1.family == .ipv4 ? 0 : 1)
        }
        for route in routes {
            if let link = links[route.interfaceIndex] { return link }
        }
        let ordered = links.values.filter { !$0.isLoopback }.sorted { $0.index < $1.index }
        return ordered.first(where: \.isRunning) ?? ordered.first
    }

    /// The addresses of the interface `index` in `family`, global ones before link-local ones, each in the order the
    /// kernel told of them.
    public func addresses(of index: Int32, _ family: NetworkAddress.Family) -> [NetworkAddress] {
        let own = addresses.filter { $0.index == index && $0.family == family }
        return own.filter { $0.scope == 0 } + own.filter { $0.scope != 0 }
    }
}

extension NetworkAddress {
    /// The same address of the same interface: a second `RTM_NEWADDR` for it (a changed lifetime) replaces nothing.
    func sameAddress(as other: NetworkAddress) -> Bool {
        index == other.index && family == other.family && bytes == other.bytes && prefixLength == other.prefixLength
    }
}
