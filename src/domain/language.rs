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

    /// The language's name in itself, as the web app's language menu shows it
    /// (`LANGUAGES` in `web/src/lib/languages.ts`).
    pub fn name(self) -> &'static str {
        match self {
            Language::En => "English",
            Language::Es => "Español",
            Language::De => "Deutsch",
            Language::Fr => "Français",
            Language::Pt => "Português",
            Language::Ru => "Русский",
            Language::Pl => "Polski",
            Language::Nl => "Nederlands",
            Language::Uk => "Українська",
            Language::Tr => "Türkçe",
            Language::It => "Italiano",
            Language::Zh => "中文",
            Language::Ko => "한국어",
            Language::Ja => "日本語",
        }
    }

    /// Parses a language code, case-insensitively; `None` for anything unsupported.
    pub fn parse(code: &str) -> Option<Language> {
        let code = code.trim().to_ascii_lowercase();
        SUPPORTED_LANGUAGES.into_iter().find(|l| l.code() == code)
    }

    /// An exact code, as the web app matches it (`isLanguageCode`).
    fn exact(code: &str) -> Option<Language> {
        SUPPORTED_LANGUAGES.into_iter().find(|l| l.code() == code)
    }

    /// The language the web app will show (`resolveLanguage` in `web/src/lib/languages.ts`):
    /// the `lang` URL parameter (English when it names none we have), the stored choice, the
    /// browser's languages by preference, else English.
    pub fn resolve(
        url_param: Option<&str>,
        stored: Option<&str>,
        accept_language: Option<&str>,
    ) -> Language {
        if let Some(param) = url_param.filter(|p| !p.is_empty()) {
            return Language::exact(param).unwrap_or(Language::En);
        }
        if let Some(language) = stored.and_then(Language::exact) {
            return language;
        }
        browser_languages(accept_language.unwrap_or(""))
            .into_iter()
            .find_map(|tag| {
                let base = tag.to_ascii_lowercase();
                Language::exact(base.split('-').next().unwrap_or(""))
            })
            .unwrap_or(Language::En)
    }
}

/// The tags of an `Accept-Language` header, most preferred first (what `navigator.languages`
/// lists); refused ones (`q=0`) left out.
fn browser_languages(header: &str) -> Vec<&str> {
    let mut tags: Vec<(&str, f32)> = header
        .split(',')
        .filter_map(|entry| {
            let mut parts = entry.split(';').map(str::trim);
            let tag = parts.next().filter(|t| !t.is_empty())?;
            let quality = parts
                .find_map(|p| p.strip_prefix("q="))
                .map_or(1.0, |q| q.parse::<f32>().unwrap_or(0.0));
            (quality > 0.0).then_some((tag, quality))
        })
        .collect();
    tags.sort_by(|a, b| b.1.total_cmp(&a.1));
    tags.into_iter().map(|(tag, _)| tag).collect()
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
    fn codes_and_names_are_the_web_apps() {
        let app = include_str!("../../web/src/lib/languages.ts");
        for language in SUPPORTED_LANGUAGES {
            let entry = format!(
                "{{ code: '{}', name: '{}' }}",
                language.code(),
                language.name()
            );
            assert!(app.contains(&entry), "languages.ts lists {entry}");
        }
    }

    #[test]
    fn codes_are_case_insensitive_and_unknown_ones_are_refused() {
        assert_eq!(Language::parse("DE"), Some(Language::De));
        assert_eq!(Language::parse("xx"), None);
        assert_eq!(Language::parse(""), None);
    }

    #[test]
    fn the_page_language_is_resolved_as_the_web_app_resolves_it() {
        let resolve = Language::resolve;
        assert_eq!(resolve(Some("ja"), Some("de"), Some("fr")), Language::Ja);
        // An unsupported (or differently cased) parameter means English, whatever else says.
        assert_eq!(resolve(Some("xx"), Some("de"), Some("fr")), Language::En);
        assert_eq!(resolve(Some("DE"), None, None), Language::En);
        assert_eq!(resolve(Some(""), Some("de"), None), Language::De);
        assert_eq!(resolve(None, Some("de"), Some("fr")), Language::De);
        assert_eq!(
            resolve(None, Some("xx"), Some("fr-CA,fr;q=0.9")),
            Language::Fr
        );
        assert_eq!(
            resolve(None, None, Some("sv-SE, pt-BR;q=0.8, en;q=0.5")),
            Language::Pt
        );
        assert_eq!(
            resolve(None, None, Some("en;q=0.4, zh-CN;q=0.9")),
            Language::Zh
        );
        assert_eq!(resolve(None, None, Some("de;q=0, sv")), Language::En);
        assert_eq!(resolve(None, None, Some("*")), Language::En);
        assert_eq!(resolve(None, None, None), Language::En);
    }
}
