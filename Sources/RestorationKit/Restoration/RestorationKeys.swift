/// The keys UIKit writes, as seen in archives (see FORMAT.md).
public enum RestorationKeys {
    public static let majorVersion = "kUIStateRestorationArchiveMajorVersionKey"
    public static let minorVersion = "kUIStateRestorationArchiveMinorVersionKey"
    public static let bundleVersion = "UIApplicationStateRestorationBundleVersion"
    public static let systemVersion = "UIApplicationStateRestorationSystemVersion"
    public static let timestamp = "UIApplicationStateRestorationTimestamp"
    public static let userInterfaceIdiom = "UIApplicationStateRestorationUserInterfaceIdiom"
    public static let identifierPaths = "kRootRestorationIdentifiersKey"
    public static let classMap = "kViewControllerRestorationClassMapKey"
    public static let viewRestorationData = viewRestorationDataKey.description
    /// The same key for readers that compare bytes.
    static let viewRestorationDataKey: StaticString = "kViewRestorationDataKey"
    public static let children = "kUIViewControllerChildrenKey"
    public static let presentedViewController = "kPresentedViewControllerKey"
    public static let tabBarSelectedViewController = "kTabBarSelectedViewControllerKey"
    public static let proxyClass = "_UIObjectIdentifierPathProxy"
    public static let proxyPath = "kObjectIdentifierPathProxyIdentifierPathKey"
    public static let firstResponders = "kFirstRespondersKey"
}
