//! Ferry's own Markdown content (`content/`, embedded in the binary): legal pages, help
//! articles and blog posts. Front matter gives the title, dates, category and tags;
//! `{{placeholders}} take the operator's details from the configuration; raw HTML in the
//! Markdown is dropped. Help articles can be searched; blog posts are listed newest first and
//! published as an RSS feed.
//!
//! `content/{collection}/{slug}.md` is the English original; a translation of it lives at
//! `content/{collection}/{language}/{slug}.md`. A reader gets the document in their language
//! where it is translated, else in English, and each answer says which language it is in.

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use pulldown_cmark::{Event, Options, Parser, html};
use rust_embed::RustEmbed;
use serde::Serialize;

use crate::domain::language::Language;

#[derive(RustEmbed)]
#[folder = "content/"]
struct ContentFiles;

/// The collections pages may ask for.
pub const COLLECTIONS: [&str; 3] = ["legal", "help", "blog"];

/// The operator's details the documents mention.
pub struct Operator<'a> {
    pub company_name: &'a str,
    pub site_name: &'a str,
    pub support_email: &'a str,
    pub public_url: &'a str,
}

/// What lists and search results show of a document.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Summary {
    pub slug: String,
    pub title: String,
    pub summary: Option<String>,
    pub category: Option<String>,
    /// ISO date of the last update (legal, help) or of publication (blog).
    pub updated: Option<String>,
    pub date: Option<String>,
    pub tags: Vec<String>,
    pub author: Option<String>,
    pub popular: bool,
    /// The language the title, summary and text are in.
    pub language: &'static str,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Document {
    #[serde(flatten)]
    pub summary: Summary,
    pub html: String,
}

/// A search hit: the document and a short excerpt around the first match.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Hit {
    #[serde(flatten)]
    pub summary: Summary,
    pub excerpt: String,
}

/// One parsed source file.
struct Source {
    summary: Summary,
    body: String,
    /// Plain, lower-cased text of the body, for search.
    text: String,
}

/// Every document, parsed once: `collection → slug → versions`.
type Library = BTreeMap<String, BTreeMap<String, Versions>>;

/// A document: its English original and its translations.
struct Versions {
    english: Source,
    translations: HashMap<Language, Source>,
}

impl Versions {
    /// The version in `language`, else the English original.
    fn read_in(&self, language: Language) -> &Source {
        self.translations.get(&language).unwrap_or(&self.english)
    }
}

fn library() -> &'static Library {
    static LIBRARY: OnceLock<Library> = OnceLock::new();
    LIBRARY.get_or_init(|| {
        let mut originals: BTreeMap<(String, String), Source> = BTreeMap::new();
        let mut translations: Vec<(String, String, Language, Source)> = Vec::new();
        for path in ContentFiles::iter() {
            let Some((collection, language, slug)) = content_path(&path) else {
                continue;
            };
            let Some(text) =
                ContentFiles::get(&path).and_then(|f| String::from_utf8(f.data.into_owned()).ok())
            else {
                continue;
            };
            let source = parse(slug, language, &text);
            match language {
                Language::En => {
                    originals.insert((collection.to_owned(), slug.to_owned()), source);
                }
                _ => translations.push((collection.to_owned(), slug.to_owned(), language, source)),
            }
        }
        let mut library = Library::new();
        for ((collection, slug), english) in originals {
            library.entry(collection).or_default().insert(
                slug,
                Versions {
                    english,
                    translations: HashMap::new(),
                },
            );
        }
        // A translation counts only beside its original.
        for (collection, slug, language, source) in translations {
            if let Some(versions) = library.get_mut(&collection).and_then(|c| c.get_mut(&slug)) {
                versions.translations.insert(language, source);
            }
        }
        library
    })
}

/// `(collection, language, slug)` of a content file: `help/setup-2fa.md` is English,
/// `help/de/setup-2fa.md` its German translation.
fn content_path(path: &str) -> Option<(&str, Language, &str)> {
    let (collection, file) = path.split_once('/')?;
    let (language, file) = match file.split_once('/') {
        Some((code, file)) => (Language::parse(code).filter(|l| *l != Language::En)?, file),
        None => (Language::En, file),
    };
    let slug = file.strip_suffix(".md")?;
    (COLLECTIONS.contains(&collection) && well_formed(slug)).then_some((collection, language, slug))
}

fn well_formed(slug: &str) -> bool {
    !slug.is_empty()
        && slug.len() <= 100
        && slug
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

fn parse(slug: &str, language: Language, text: &str) -> Source {
    let (front, body) = split_front_matter(text);
    let field = |name: &str| {
        front.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            let value = value.trim().trim_matches('"');
            (key.trim() == name && !value.is_empty()).then(|| value.to_owned())
        })
    };
    Source {
        summary: Summary {
            slug: slug.to_owned(),
            title: field("title").unwrap_or_else(|| slug.to_owned()),
            summary: field("summary"),
            category: field("category"),
            updated: field("updated"),
            date: field("date"),
            tags: field("tags")
                .map(|t| {
                    t.split(',')
                        .map(|tag| tag.trim().to_lowercase())
                        .filter(|tag| !tag.is_empty())
                        .collect()
                })
                .unwrap_or_default(),
            author: field("author"),
            popular: field("popular").as_deref() == Some("true"),
            language: language.code(),
        },
        body: body.to_owned(),
        text: plain_text(body).to_lowercase(),
    }
}

/// The document `collection/slug` in `language` (else in English), rendered; `None` for
/// anything not in the content folder.
pub fn document(
    collection: &str,
    slug: &str,
    language: Language,
    operator: &Operator<'_>,
) -> Option<Document> {
    let source = library().get(collection)?.get(slug)?.read_in(language);
    Some(Document {
        summary: source.summary.clone(),
        html: render(&substitute(&source.body, operator)),
    })
}

/// Every document of a collection in `language` (each in English where it is not translated):
/// help articles by title, blog posts newest first.
pub fn list(collection: &str, language: Language) -> Option<Vec<Summary>> {
    let documents = library().get(collection)?;
    let mut items: Vec<Summary> = documents
        .values()
        .map(|v| v.read_in(language).summary.clone())
        .collect();
    if collection == "blog" {
        items.sort_by(|a, b| b.date.cmp(&a.date).then_with(|| a.slug.cmp(&b.slug)));
    } else {
        items.sort_by_cached_key(|a| a.title.to_lowercase());
    }
    Some(items)
}

/// Documents of `collection` containing every word of `query` (title, summary or body), best
/// first: title matches weigh most, then the summary, then how often the body mentions them.
/// Each document is searched in `language` where it is translated, else in English, with the
/// operator's details filled in as the articles show them.
pub fn search(
    collection: &str,
    query: &str,
    language: Language,
    limit: usize,
    operator: &Operator<'_>,
) -> Vec<Hit> {
    let words: Vec<String> = query
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .take(8)
        .collect();
    let Some(documents) = library().get(collection) else {
        return vec![];
    };
    if words.is_empty() {
        return vec![];
    }
    let mut scored: Vec<(usize, Hit)> = documents
        .values()
        .map(|versions| versions.read_in(language))
        .filter_map(|source| {
            let mut shown = source.summary.clone();
            shown.title = operator.fill(&shown.title);
            shown.summary = shown.summary.map(|s| operator.fill(&s));
            let text = operator.fill(&source.text);
            let title = shown.title.to_lowercase();
            let summary = shown.summary.clone().unwrap_or_default().to_lowercase();
            let mut score = 0;
            for word in &words {
                let in_title = title.matches(word.as_str()).count();
                let in_summary = summary.matches(word.as_str()).count();
                let in_body = text.matches(word.as_str()).count();
                if in_title + in_summary + in_body == 0 {
                    return None;
                }
                score += 10 * in_title + 4 * in_summary + in_body.min(10);
            }
            Some((
                score,
                Hit {
                    summary: shown,
                    excerpt: excerpt(&text, &words[0]),
                },
            ))
        })
        .collect();
    scored.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then_with(|| a.1.summary.title.cmp(&b.1.summary.title))
    });
    scored.into_iter().take(limit).map(|(_, hit)| hit).collect()
}

/// About 160 characters of `text` around the first `word`, on character boundaries.
fn excerpt(text: &str, word: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let at = text
        .find(word)
        .map(|byte| text[..byte].chars().count())
        .unwrap_or(0);
    let start = at.saturating_sub(60);
    let end = (start + 160).min(chars.len());
    let mut out: String = chars[start..end].iter().collect();
    if start > 0 {
        out.insert(0, '…');
    }
    if end < chars.len() {
        out.push('…');
    }
    out
}

/// The words of Markdown, without its markup.
fn plain_text(markdown: &str) -> String {
    let mut out = String::new();
    for event in Parser::new(markdown) {
        match event {
            Event::Text(text) | Event::Code(text) => {
                out.push_str(&text);
            }
            Event::SoftBreak | Event::HardBreak | Event::End(_) => out.push(' '),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The blog as RSS 2.0, newest first.
pub fn rss(operator: &Operator<'_>) -> String {
    let base = operator.public_url.trim_end_matches('/');
    let mut items = String::new();
    for post in list("blog", Language::En).unwrap_or_default() {
        let link = format!("{base}/blog/{}", post.slug);
        let date = post.date.as_deref().and_then(rfc822).unwrap_or_default();
        items.push_str(&format!(
            "    <item>\n      <title>{}</title>\n      <link>{}</link>\n      <guid isPermaLink=\"true\">{}</guid>\n      <pubDate>{}</pubDate>\n      <description>{}</description>\n{}    </item>\n",
            xml(&post.title),
            xml(&link),
            xml(&link),
            date,
            xml(post.summary.as_deref().unwrap_or("")),
            post.category
                .as_deref()
                .map(|c| format!("      <category>{}</category>\n", xml(c)))
                .unwrap_or_default(),
        ));
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\">\n  <channel>\n    <title>{} blog</title>\n    <link>{base}/blog</link>\n    <description>News and guides from {}</description>\n    <language>en</language>\n{items}  </channel>\n</rss>\n",
        xml(operator.site_name),
        xml(operator.site_name),
    )
}

fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

/// `2026-09-01` as an RSS date (`Tue, 01 Sep 2026 00:00:00 GMT`).
fn rfc822(iso: &str) -> Option<String> {
    let mut parts = iso.split('-').map(|p| p.parse::<i64>().ok());
    let (year, month, day) = (parts.next()??, parts.next()??, parts.next()??);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    // Days since 1970-01-01 (Howard Hinnant's civil-from-days, inverted).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][days.rem_euclid(7) as usize];
    let month_name = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ][(month - 1) as usize];
    Some(format!(
        "{weekday}, {day:02} {month_name} {year} 00:00:00 GMT"
    ))
}

fn split_front_matter(text: &str) -> (&str, &str) {
    let Some(rest) = text.strip_prefix("---\n") else {
        return ("", text);
    };
    match rest.split_once("\n---\n") {
        Some((front, body)) => (front, body),
        None => ("", text),
    }
}

impl Operator<'_> {
    /// The placeholders documents use and the operator's value of each.
    fn placeholders(&self) -> [(&'static str, &str); 4] {
        [
            ("{{company_name}}", self.company_name),
            ("{{site_name}}", self.site_name),
            ("{{support_email}}", self.support_email),
            ("{{public_url}}", self.public_url),
        ]
    }

    /// Plain text with the placeholders filled in (search excerpts, titles).
    fn fill(&self, text: &str) -> String {
        self.placeholders()
            .iter()
            .fold(text.to_owned(), |text, (name, value)| {
                text.replace(name, value)
            })
    }
}

/// Replaces the operator placeholders. The values are Markdown-escaped so an operator's text
/// can never turn into markup.
fn substitute(body: &str, operator: &Operator<'_>) -> String {
    let escape = |value: &str| {
        value
            .chars()
            .flat_map(|c| {
                let special = matches!(
                    c,
                    '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|' | '!'
                );
                special
                    .then_some('\\')
                    .into_iter()
                    .chain(std::iter::once(c))
            })
            .collect::<String>()
    };
    operator
        .placeholders()
        .iter()
        .fold(body.to_owned(), |body, (name, value)| {
            body.replace(name, &escape(value))
        })
}

/// Markdown to HTML, with any raw HTML of the source left out.
fn render(markdown: &str) -> String {
    let parser = Parser::new_ext(
        markdown,
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH,
    )
    .filter(|event| !matches!(event, Event::Html(_) | Event::InlineHtml(_)));
    let mut out = String::new();
    html::push_html(&mut out, parser);
    out
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    const OPERATOR: Operator<'static> = Operator {
        company_name: "Harbour <Ltd>",
        site_name: "Ferry",
        support_email: "help@example.org",
        public_url: "https://ferry.example",
    };

    #[test]
    fn front_matter_gives_title_and_date_and_the_body_renders() {
        let (front, body) =
            split_front_matter("---\ntitle: T\nupdated: 2025-05-01\n---\n## Hello\n");
        assert_eq!(front, "title: T\nupdated: 2025-05-01");
        assert_eq!(render(body), "<h2>Hello</h2>\n");
    }

    #[test]
    fn raw_html_in_markdown_is_dropped() {
        let html = render("Hi <script>alert(1)</script> there\n\n<div onclick=x>block</div>\n");
        assert!(
            !html.contains("<script") && !html.contains("<div"),
            "{html}"
        );
    }

    #[test]
    fn operator_details_are_substituted_and_escaped() {
        let text = substitute("{{company_name}} at {{support_email}}", &OPERATOR);
        let html = render(&text);
        assert!(
            html.contains("Harbour &lt;Ltd&gt; at help@example.org"),
            "{html}"
        );
    }

    #[test]
    fn the_legal_documents_state_the_spec_facts() {
        let terms = document("legal", "terms", Language::En, &OPERATOR).expect("terms");
        assert_eq!(terms.summary.title, "Terms of Service");
        assert_eq!(terms.summary.updated.as_deref(), Some("2025-05-01"));
        for fact in ["May 1, 2025", "18", "Cayman Islands", "help@example.org"] {
            assert!(terms.html.contains(fact), "terms should say {fact}");
        }
        assert!(!terms.html.contains("{{"), "every placeholder is filled");
        let privacy = document("legal", "privacy", Language::En, &OPERATOR).expect("privacy");
        assert_eq!(privacy.summary.title, "Privacy Policy");
        assert!(privacy.html.contains("May 1, 2025"));
    }

    #[test]
    fn only_known_collections_and_plain_slugs_are_served() {
        assert!(document("legal", "../Cargo", Language::En, &OPERATOR).is_none());
        assert!(document("secrets", "terms", Language::En, &OPERATOR).is_none());
        assert!(document("legal", "nope", Language::En, &OPERATOR).is_none());
        assert!(document("legal", "Terms", Language::En, &OPERATOR).is_none());
    }

    #[test]
    fn the_help_centre_has_the_spec_articles_in_three_categories() {
        let articles = list("help", Language::En).expect("help");
        assert_eq!(articles.len(), 20);
        for slug in [
            "what-is-the-product",
            "fixed-vs-float",
            "setup-2fa",
            "trading-fees",
        ] {
            assert!(articles.iter().any(|a| a.slug == slug), "{slug}");
        }
        for article in &articles {
            let category = article.category.as_deref().unwrap_or("");
            assert!(
                ["getting-started", "exchanges", "wallets-security"].contains(&category),
                "{}: {category}",
                article.slug
            );
            assert!(article.summary.is_some(), "{}", article.slug);
        }
        assert_eq!(articles.iter().filter(|a| a.popular).count(), 6);
    }

    #[test]
    fn search_finds_articles_by_words_of_their_body_best_first() {
        let find = |query: &str| search("help", query, Language::En, 10, &OPERATOR);
        let hits = find("recovery codes");
        assert!(!hits.is_empty());
        assert!(hits.iter().any(|h| h.summary.slug == "two-factor-auth"));
        assert!(hits[0].excerpt.contains("recovery"), "{}", hits[0].excerpt);
        assert!(find("  ").is_empty());
        assert!(find("zzqqxx").is_empty());
        // Every word must match.
        assert!(find("recovery zzqqxx").is_empty());
    }

    #[test]
    fn search_results_show_the_operators_details_as_the_articles_do() {
        let hits = search("help", "commit", Language::En, 10, &OPERATOR);
        let cancel = hits
            .iter()
            .find(|h| h.summary.slug == "cancel-exchange")
            .expect("the cancel article");
        assert!(
            cancel.excerpt.contains("on Ferry does not commit"),
            "{}",
            cancel.excerpt
        );
        for hit in search("help", "exchange", Language::En, 50, &OPERATOR) {
            for text in [&hit.excerpt, &hit.summary.title] {
                assert!(!text.contains("{{"), "{}: {text}", hit.summary.slug);
            }
        }
    }

    #[test]
    fn the_blog_lists_newest_first_and_feeds_rss() {
        let posts = list("blog", Language::En).expect("blog");
        assert!(posts.len() >= 6);
        assert!(posts.windows(2).all(|w| w[0].date >= w[1].date));
        assert!(
            posts
                .iter()
                .all(|p| !p.tags.is_empty() && p.category.is_some())
        );
        let feed = rss(&OPERATOR);
        assert!(feed.starts_with("<?xml"));
        assert_eq!(feed.matches("<item>").count(), posts.len());
        assert!(feed.contains(&format!("https://ferry.example/blog/{}", posts[0].slug)));
        assert_eq!(
            rfc822("2026-09-01").as_deref(),
            Some("Tue, 01 Sep 2026 00:00:00 GMT")
        );
        assert_eq!(
            rfc822("2024-02-29").as_deref(),
            Some("Thu, 29 Feb 2024 00:00:00 GMT")
        );
    }

    #[test]
    fn content_paths_name_the_collection_language_and_slug() {
        assert_eq!(
            content_path("help/setup-2fa.md"),
            Some(("help", Language::En, "setup-2fa"))
        );
        assert_eq!(
            content_path("help/de/setup-2fa.md"),
            Some(("help", Language::De, "setup-2fa"))
        );
        for ignored in [
            "help/en/setup-2fa.md",
            "help/xx/setup-2fa.md",
            "help/de/nested/setup-2fa.md",
            "help/Setup.md",
            "secrets/de/a.md",
            "README.md",
            "help/de/notes.txt",
        ] {
            assert_eq!(content_path(ignored), None, "{ignored}");
        }
    }

    /// What a faithful translation keeps of its original: the operator placeholders, the link
    /// targets, the headings, list items and table rows. Its numbers are checked apart.
    #[derive(Debug, PartialEq, Eq)]
    struct Outline {
        placeholders: Vec<String>,
        link_targets: Vec<String>,
        heading_levels: Vec<usize>,
        list_items: usize,
        table_rows: usize,
    }

    /// The texts between each `open` and the next `close`, sorted.
    fn enclosed(text: &str, open: &str, close: &str) -> Vec<String> {
        let mut found: Vec<String> = text
            .split(open)
            .skip(1)
            .filter_map(|rest| rest.split_once(close).map(|(inner, _)| inner.to_owned()))
            .collect();
        found.sort();
        found
    }

    /// Every run of digits outside link targets, sorted.
    fn numbers(body: &str) -> Vec<String> {
        let mut without_targets = body.to_owned();
        for target in enclosed(body, "](", ")") {
            without_targets = without_targets.replace(&format!("]({target})"), "]");
        }
        let mut numbers: Vec<String> = without_targets
            .split(|c: char| !c.is_ascii_digit())
            .filter(|run| !run.is_empty())
            .map(str::to_owned)
            .collect();
        numbers.sort();
        numbers
    }

    /// A translation says every number of its original at least as often, and no other number
    /// but a single digit that a UI label of its language carries (Korean calls two-factor
    /// authentication '2단계 인증').
    fn assert_same_numbers(name: &str, original: &str, translation: &str) {
        let (original, translation) = (numbers(original), numbers(translation));
        let count = |all: &[String], number: &String| all.iter().filter(|n| *n == number).count();
        for number in original.iter().collect::<BTreeSet<_>>() {
            assert!(
                count(&translation, number) >= count(&original, number),
                "{name} says {number} less often than its original"
            );
        }
        for number in &translation {
            assert!(
                original.contains(number) || number.len() == 1,
                "{name} says {number}, which its original does not"
            );
        }
    }

    fn outline(body: &str) -> Outline {
        let lines: Vec<&str> = body.lines().collect();
        let mut heading_levels: Vec<usize> = lines
            .iter()
            .filter_map(|l| {
                let level = l.chars().take_while(|c| *c == '#').count();
                (level > 0 && l[level..].starts_with(' ')).then_some(level)
            })
            .collect();
        heading_levels.sort();
        Outline {
            placeholders: enclosed(body, "{{", "}}"),
            link_targets: enclosed(body, "](", ")"),
            heading_levels,
            list_items: lines
                .iter()
                .map(|l| l.trim_start())
                .filter(|l| {
                    l.starts_with("- ")
                        || l.split_once(". ").is_some_and(|(n, _)| {
                            !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
                        })
                })
                .count(),
            table_rows: lines.iter().filter(|l| l.starts_with('|')).count(),
        }
    }

    #[test]
    fn translations_keep_the_facts_links_and_structure_of_their_original() {
        let mut checked = 0;
        for (collection, documents) in library() {
            for (slug, versions) in documents {
                let original = &versions.english;
                for (language, translation) in &versions.translations {
                    let name = format!("{collection}/{}/{slug}", language.code());
                    let (a, b) = (&original.summary, &translation.summary);
                    // The author's name may be translated ('Ferry team'); that there is one may not.
                    let kept = |s: &Summary| {
                        let dates = (s.updated.clone(), s.date.clone());
                        let author = s.author.is_some();
                        (s.category.clone(), dates, s.tags.clone(), author, s.popular)
                    };
                    assert_eq!(
                        kept(a),
                        kept(b),
                        "{name}: front matter other than title and summary stays as it is"
                    );
                    assert!(!b.title.is_empty() && b.title != *slug, "{name}: title");
                    assert_eq!(a.summary.is_some(), b.summary.is_some(), "{name}: summary");
                    assert_eq!(b.language, language.code());
                    assert_eq!(
                        outline(&original.body),
                        outline(&translation.body),
                        "{name} differs from its original"
                    );
                    assert_same_numbers(&name, &original.body, &translation.body);
                    // CommonMark does not take `**` for emphasis where it touches punctuation
                    // on its inside and a letter on its outside, as CJK text easily has it.
                    let html = render(&translation.body);
                    assert!(!html.contains("**"), "{name}: bold left unrendered");
                    checked += 1;
                }
            }
        }
        for (collection, documents) in library() {
            for language in crate::domain::language::SUPPORTED_LANGUAGES {
                let translated = documents
                    .values()
                    .filter(|v| v.translations.contains_key(&language))
                    .count();
                assert!(
                    translated == 0 || translated == documents.len() || language == Language::En,
                    "{collection} in {} is translated in part ({translated} of {})",
                    language.code(),
                    documents.len()
                );
            }
        }
        eprintln!("{checked} translations checked");
    }

    #[test]
    fn a_document_comes_in_the_readers_language_where_it_is_translated() {
        let english = document("help", "setup-2fa", Language::En, &OPERATOR).expect("en");
        assert_eq!(english.summary.language, "en");
        let german = document("help", "setup-2fa", Language::De, &OPERATOR).expect("de");
        assert_eq!(german.summary.language, "de");
        assert_ne!(german.summary.title, english.summary.title);
        assert!(!german.html.contains("{{"), "every placeholder is filled");
        // Not translated: the English original, saying so.
        let terms = document("legal", "terms", Language::De, &OPERATOR).expect("terms");
        assert_eq!(terms.summary.language, "en");
        let listed = list("help", Language::De).expect("help");
        assert_eq!(
            listed.len(),
            list("help", Language::En).expect("help").len()
        );
        assert!(listed.iter().all(|a| a.language == "de"));
    }
}
