/// An archive value in a command document, in its `dump --json` encoding (schema version 1;
/// see `JSONTapeValue`, which writes it, and docs/json.md).
///
/// Deferred: the value is written from its tape when the writer gets to it, so that every value
/// of every document is encoded by the one writer.
extension ArchiveValue: JSONRepresentable {
    package var jsonNode: JSONNode {
        .deferred(.onTape(TapeValueReference(tape: tape, value: .node(node))))
    }
}
