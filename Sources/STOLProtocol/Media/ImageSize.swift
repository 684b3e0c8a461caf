/// The sizes `media/image` serves: a thumbnail for result lists and a larger image for a page.
/// Each names the box an image is made to fit: the bundled photographs ship in both sizes
/// (`scripts/bundled-media.sh`); a pack's images are whatever sizes the pack holds, and the
/// nearest is chosen.
public enum ImageSize: String, Hashable, Sendable, CaseIterable, EnumeratedParam {
    /// Fits 160 × 160 px.
    case thumbnail
    /// Fits 800 × 800 px.
    case page

    /// An unknown size is told the sizes there are, in `data.allowed` too.
    public static var listsAllowed: Bool { true }
}
