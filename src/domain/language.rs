//! The UI languages Ferry ships (spec/accounts-and-pages.md §9).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    En,
    Es,
    De,
    Fr,
    Pt,
    Ru,
    Pl,
    Nl,
    Uk,
    Tr,
    It,
    Zh,
    Ko,
    Ja,
}

/// Every supported language, English (the default and the source of all texts) first.
pub const SUPPORTED_LANGUAGES: [Language; 14] = [
    Language::En,
    Language::Es,
    Language::De,
    Language::Fr,
    Language::Pt,
    Language::Ru,
    Language::Pl,
    Language::Nl,
    Language::Uk,
    Language::Tr,
    Language::It,
    Language::Zh,
    Language::Ko,
    Language::Ja,
];

impl Language {
    pub fn code(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Es => "es",
            Language::De => "de",
            Language::Fr => "fr",
            Language::Pt => "pt",
            Language::Ru => "ru",
            Language::Pl => "pl",
            Language::Nl => "nl",
            Language::Uk => "uk",
            Language::Tr => "tr",
            Language::It => "it",
            Language::Zh => "zh",
            Language::Ko => "ko",
            Language::Ja => "ja",
        }
    }

    /// Parses a language code, case-insensitively; `None` for anything unsupported.
    pub fn parse(code: &str) -> Option<Language> {
        let code = code.trim().to_ascii_lowercase();
        SUPPORTED_LANGUAGES.into_iter().find(|l| l.code() == code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_supported_code_parses_back_to_itself() {
        for language in SUPPORTED_LANGUAGES {
            assert_eq!(Language::parse(language.code()), Some(language));
        }
    }

    #[test]
    fn codes_are_case_insensitive_and_unknown_ones_are_refused() {
        assert_eq!(Language::parse("DE"), Some(Language::De));
        assert_eq!(Language::parse("xx"), None);
        assert_eq!(Language::parse(""), None);
    }
}
