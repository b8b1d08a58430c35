/// Indices `0..<count` ordered by `compare` (negative, zero or positive), equal elements in
/// their order: how JSON objects' members are ordered by key.
func stableOrder(count: Int, by compare: (Int, Int) -> Int) -> [Int] {
    [Int](unsafeUninitializedCapacity: count) { order, initialized in
        stableOrder(into: order, by: compare)
        initialized = count
    }
}

/// `stableOrder(count: buffer.count, by: compare)` written into `buffer` (uninitialized memory
/// will do): for a caller that keeps the indices on the stack.
func stableOrder(into buffer: UnsafeMutableBufferPointer<Int>, by compare: (Int, Int) -> Int) {
    var order = buffer
    for index in order.indices { (order.baseAddress! + index).initialize(to: index) }
    guard order.count > 1 else { return }
    guard order.count <= 32 else {
        order.sort { lhs, rhs in
            let comparison = compare(lhs, rhs)
            return comparison < 0 || (comparison == 0 && lhs < rhs)
        }
        return
    }
    // An object's fields, the usual case: an insertion sort, one comparison per key when they
    // come sorted already.
    for position in 1..<order.count {
        let moving = order[position]
        var slot = position
        while slot > 0, compare(order[slot - 1], moving) > 0 {
            order[slot] = order[slot - 1]
            slot -= 1
        }
        order[slot] = moving
    }
}
