/// A JSON value, as written: numbers keep the exact text they will be printed with.
enum JSONNode {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONNode])
    /// Members in encoding order; the writer sorts them.
    case object([(key: String, value: JSONNode)])
}
