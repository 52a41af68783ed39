//! Ferry's own Markdown content (`content/`, embedded in the binary): legal pages now, help
//! articles and blog posts later. Front matter gives the title and date; `{{placeholders}}`
//! take the operator's details from the configuration; raw HTML in the Markdown is dropped.

use pulldown_cmark::{Event, Options, Parser, html};
use rust_embed::RustEmbed;
use serde::Serialize;

#[derive(RustEmbed)]
#[folder = "content/"]
struct ContentFiles;

/// The collections pages may ask for.
pub const COLLECTIONS: [&str; 1] = ["legal"];

/// The operator's details the documents mention.
pub struct Operator<'a> {
    pub company_name: &'a str,
    pub site_name: &'a str,
    pub support_email: &'a str,
    pub public_url: &'a str,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Document {
    pub slug: String,
    pub title: String,
    /// ISO date of the last update, from the front matter.
    pub updated: Option<String>,
    /// The language the document is written in.
    pub language: &'static str,
    pub html: String,
}

/// The document `collection/slug`, rendered; `None` for anything not in the content folder.
pub fn document(collection: &str, slug: &str, operator: &Operator<'_>) -> Option<Document> {
    let well_formed = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    };
    if !COLLECTIONS.contains(&collection) || !well_formed(slug) {
        return None;
    }
    let file = ContentFiles::get(&format!("{collection}/{slug}.md"))?;
    let text = String::from_utf8(file.data.into_owned()).ok()?;
    let (front, body) = split_front_matter(&text);
    let field = |name: &str| {
        front.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            (key.trim() == name).then(|| value.trim().trim_matches('"').to_owned())
        })
    };
    Some(Document {
        slug: slug.to_owned(),
        title: field("title").unwrap_or_else(|| slug.to_owned()),
        updated: field("updated"),
        language: "en",
        html: render(&substitute(body, operator)),
    })
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
    body.replace("{{company_name}}", &escape(operator.company_name))
        .replace("{{site_name}}", &escape(operator.site_name))
        .replace("{{support_email}}", &escape(operator.support_email))
        .replace("{{public_url}}", &escape(operator.public_url))
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
        let terms = document("legal", "terms", &OPERATOR).expect("terms");
        assert_eq!(terms.title, "Terms of Service");
        assert_eq!(terms.updated.as_deref(), Some("2025-05-01"));
        for fact in ["May 1, 2025", "18", "Cayman Islands", "help@example.org"] {
            assert!(terms.html.contains(fact), "terms should say {fact}");
        }
        assert!(!terms.html.contains("{{"), "every placeholder is filled");
        let privacy = document("legal", "privacy", &OPERATOR).expect("privacy");
        assert_eq!(privacy.title, "Privacy Policy");
        assert!(privacy.html.contains("May 1, 2025"));
    }

    #[test]
    fn only_known_collections_and_plain_slugs_are_served() {
        assert!(document("legal", "../Cargo", &OPERATOR).is_none());
        assert!(document("secrets", "terms", &OPERATOR).is_none());
        assert!(document("legal", "nope", &OPERATOR).is_none());
        assert!(document("legal", "Terms", &OPERATOR).is_none());
    }
}
