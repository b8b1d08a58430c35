/// `UIUserInterfaceIdiom`, as saved under `UIApplicationStateRestorationUserInterfaceIdiom`.
public struct UserInterfaceIdiom: Hashable, Sendable {
    public var rawValue: Int128

    public init(rawValue: Int128) {
        self.rawValue = rawValue
    }

    /// UIKit's name for the idiom, or nil for a value UIKit does not define.
    public var name: String? {
        switch rawValue {
        case -1: "unspecified"
        case 0: "phone"
        case 1: "pad"
        case 2: "tv"
        case 3: "carPlay"
        case 5: "mac"
        case 6: "vision"
        default: nil
        }
    }
}
