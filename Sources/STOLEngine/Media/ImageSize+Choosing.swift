import STOLProtocol

extension ImageSize {
    /// The longest side, in pixels, of an image of this size.
    public var longSide: Int {
        switch self {
        case .thumbnail: 160
        case .page: 800
        }
    }

    /// The index of the image (of `dimensions`, in order of preference) to serve at this size:
    /// the smallest whose longest side reaches `longSide`, else the largest. The first wins a tie.
    public func choose(_ dimensions: [(width: Int, height: Int)]) -> Int? {
        var best: Int?
        for (i, d) in dimensions.enumerated() where max(d.width, d.height) >= longSide {
            if let b = best, max(dimensions[b].width, dimensions[b].height) <= max(d.width, d.height) { continue }
            best = i
        }
        return best ?? Self.largest(dimensions)
    }

    /// The index of the largest image by area (what `media/image` serves without a size); the first wins a tie.
    public static func largest(_ dimensions: [(width: Int, height: Int)]) -> Int? {
        var best: Int?
        for (i, d) in dimensions.enumerated() {
            if let b = best, dimensions[b].width * dimensions[b].height >= d.width * d.height { continue }
            best = i
        }
        return best
    }
}
