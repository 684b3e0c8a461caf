/// A value handed to another thread that the compiler cannot prove safe to send; the sender gives
/// it up and only the receiving thread uses it (ZIPFoundation's `Archive`, a relatives finder).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
