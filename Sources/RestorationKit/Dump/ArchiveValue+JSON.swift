/// An archive value in a command document, in its `dump --json` encoding (schema version 1;
/// see `JSONTapeValue`, which writes it, and docs/json.md).
///
/// Deferred: the value is written from its tape when the writer gets to it, so that every value
/// of every document is encoded by the one writer.
struct JSONArchiveValue: JSONRepresentable {
    let value: ArchiveValue

    init(_ value: ArchiveValue) {
        self.value = value
    }

    var jsonNode: JSONNode {
        .deferred(.value(value))
    }
}
