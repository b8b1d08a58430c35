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
    public static let children = childrenKey.description
    public static let presentedViewController = presentedViewControllerKey.description
    public static let tabBarSelectedViewController = tabBarSelectedViewControllerKey.description
    public static let proxyClass = proxyClassName.description
    public static let proxyPath = proxyPathKey.description
    public static let firstResponders = firstRespondersKey.description

    // The same keys for readers that compare a tape's bytes.
    static let viewRestorationDataKey: StaticString = "kViewRestorationDataKey"
    static let proxyPathKey: StaticString = "kObjectIdentifierPathProxyIdentifierPathKey"
    static let proxyClassName: StaticString = "_UIObjectIdentifierPathProxy"
    static let childrenKey: StaticString = "kUIViewControllerChildrenKey"
    static let tabBarSelectedViewControllerKey: StaticString = "kTabBarSelectedViewControllerKey"
    static let presentedViewControllerKey: StaticString = "kPresentedViewControllerKey"
    static let firstRespondersKey: StaticString = "kFirstRespondersKey"
}
