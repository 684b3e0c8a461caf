import STOLEngine
/// Turns the language of a checklist's common name into a BCP-47 tag.
///
/// Checklists write languages as ISO 639-1 (`en`), ISO 639-2/3 (`eng`, `fre`, `fra`), an English
/// language name (`Turkish`) or a tag with a region (`pt-BR`). BCP-47 takes the two-letter code
/// where one exists and the three-letter code otherwise; anything not recognised becomes `und`.
public enum LanguageTag {
    /// The BCP-47 tag for `text`, or `und`.
    public static func bcp47(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return "und" }
        let lowered = trimmed.lowercased()
        if let tag = byCode[lowered] ?? byName[lowered] { return tag }
        // A tag with subtags: `pt-BR`, `zh_Hant`.
        let parts = trimmed.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        if parts.count > 1, let primary = byCode[parts[0].lowercased()],
            parts.dropFirst().allSatisfy({ (2...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
        {
            let rest = parts.dropFirst().map { part -> String in
                if part.count == 2, part.allSatisfy(\.isLetter) { return part.uppercased() }  // region
                if part.count == 4, part.allSatisfy(\.isLetter) { return part.prefix(1).uppercased() + part.dropFirst().lowercased() }  // script
                return part.lowercased()
            }
            return ([primary] + rest).joined(separator: "-")
        }
        return "und"
    }

    /// (English name, ISO 639-1 or nil, ISO 639-3, other ISO 639-2/B codes).
    private static let languages: [(String, String?, String, [String])] = [
        ("Afrikaans", "af", "afr", []), ("Albanian", "sq", "sqi", ["alb"]), ("Amharic", "am", "amh", []),
        ("Arabic", "ar", "ara", []), ("Armenian", "hy", "hye", ["arm"]), ("Azerbaijani", "az", "aze", []),
        ("Basque", "eu", "eus", ["baq"]), ("Belarusian", "be", "bel", []), ("Bengali", "bn", "ben", []),
        ("Bosnian", "bs", "bos", []), ("Breton", "br", "bre", []), ("Bulgarian", "bg", "bul", []),
        ("Burmese", "my", "mya", ["bur"]), ("Catalan", "ca", "cat", []), ("Chinese", "zh", "zho", ["chi"]),
        ("Croatian", "hr", "hrv", []), ("Czech", "cs", "ces", ["cze"]), ("Danish", "da", "dan", []),
        ("Dutch", "nl", "nld", ["dut"]), ("English", "en", "eng", []), ("Esperanto", "eo", "epo", []),
        ("Estonian", "et", "est", []), ("Faroese", "fo", "fao", []), ("Fijian", "fj", "fij", []),
        ("Finnish", "fi", "fin", []), ("French", "fr", "fra", ["fre"]), ("Galician", "gl", "glg", []),
        ("Georgian", "ka", "kat", ["geo"]), ("German", "de", "deu", ["ger"]), ("Greek", "el", "ell", ["gre"]),
        ("Greenlandic", "kl", "kal", []), ("Guarani", "gn", "grn", []), ("Gujarati", "gu", "guj", []),
        ("Hawaiian", nil, "haw", []), ("Hebrew", "he", "heb", []), ("Hindi", "hi", "hin", []),
        ("Hungarian", "hu", "hun", []), ("Icelandic", "is", "isl", ["ice"]), ("Indonesian", "id", "ind", []),
        ("Irish", "ga", "gle", []), ("Italian", "it", "ita", []), ("Japanese", "ja", "jpn", []),
        ("Kannada", "kn", "kan", []), ("Kazakh", "kk", "kaz", []), ("Khmer", "km", "khm", []),
        ("Korean", "ko", "kor", []), ("Kurdish", "ku", "kur", []), ("Lao", "lo", "lao", []),
        ("Latin", "la", "lat", []), ("Latvian", "lv", "lav", []), ("Lithuanian", "lt", "lit", []),
        ("Luxembourgish", "lb", "ltz", []), ("Macedonian", "mk", "mkd", ["mac"]), ("Malagasy", "mg", "mlg", []),
        ("Malay", "ms", "msa", ["may"]), ("Malayalam", "ml", "mal", []), ("Maltese", "mt", "mlt", []),
        ("Maori", "mi", "mri", ["mao"]), ("Marathi", "mr", "mar", []), ("Mongolian", "mn", "mon", []),
        ("Nepali", "ne", "nep", []), ("Norwegian", "no", "nor", []), ("Norwegian Bokmål", "nb", "nob", []),
        ("Norwegian Nynorsk", "nn", "nno", []), ("Occitan", "oc", "oci", []), ("Persian", "fa", "fas", ["per"]),
        ("Polish", "pl", "pol", []), ("Portuguese", "pt", "por", []), ("Punjabi", "pa", "pan", []),
        ("Quechua", "qu", "que", []), ("Romanian", "ro", "ron", ["rum"]), ("Russian", "ru", "rus", []),
        ("Sami", "se", "sme", []), ("Samoan", "sm", "smo", []), ("Sanskrit", "sa", "san", []),
        ("Scottish Gaelic", "gd", "gla", []), ("Serbian", "sr", "srp", []), ("Sinhala", "si", "sin", []),
        ("Slovak", "sk", "slk", ["slo"]), ("Slovenian", "sl", "slv", []), ("Somali", "so", "som", []),
        ("Spanish", "es", "spa", []), ("Swahili", "sw", "swa", []), ("Swedish", "sv", "swe", []),
        ("Tagalog", "tl", "tgl", []), ("Tahitian", "ty", "tah", []), ("Tamil", "ta", "tam", []),
        ("Telugu", "te", "tel", []), ("Thai", "th", "tha", []), ("Tibetan", "bo", "bod", ["tib"]),
        ("Tongan", "to", "ton", []), ("Turkish", "tr", "tur", []), ("Turkmen", "tk", "tuk", []),
        ("Ukrainian", "uk", "ukr", []), ("Urdu", "ur", "urd", []), ("Uzbek", "uz", "uzb", []),
        ("Vietnamese", "vi", "vie", []), ("Welsh", "cy", "cym", ["wel"]), ("Xhosa", "xh", "xho", []),
        ("Yiddish", "yi", "yid", []), ("Yoruba", "yo", "yor", []), ("Zulu", "zu", "zul", []),
        ("Cantonese", nil, "yue", []), ("Mandarin", "zh", "cmn", []), ("Filipino", nil, "fil", []),
        ("Hawaiian Creole", nil, "hwc", []), ("Papiamento", nil, "pap", []), ("Navajo", "nv", "nav", []),
    ]

    private static let byCode: [String: String] = {
        var out: [String: String] = [:]
        for (_, two, three, others) in languages {
            let tag = two ?? three
            if let two { out[two] = out[two] ?? two }
            out[three] = tag
            for other in others { out[other] = tag }
        }
        return out
    }()

    private static let byName: [String: String] = {
        var out: [String: String] = [:]
        for (name, two, three, _) in languages { out[name.lowercased()] = two ?? three }
        return out
    }()
}
