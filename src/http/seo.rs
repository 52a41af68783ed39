//! What search engines and link previews read before any script runs: the app's `index.html`
//! with each route's title, description, keywords, canonical URL, Open Graph and Twitter tags,
//! the alternate-language links and, for private pages and unknown paths, `noindex` (unknown
//! paths also answer 404). Plus `/sitemap.xml` and `/robots.txt`.

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::AppState;
use crate::domain::language::{Language, SUPPORTED_LANGUAGES};
use crate::services::content;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/sitemap.xml", get(sitemap))
        .route("/robots.txt", get(robots))
}

/// The head of one page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageMeta {
    pub title: String,
    pub description: String,
    pub keywords: String,
    pub og_type: &'static str,
    pub noindex: bool,
    /// 404 for paths that are no page of the site.
    pub found: bool,
}

const DEFAULT_DESCRIPTION: &str = "Swap one cryptocurrency for another in minutes, without an \
    account and without handing over custody of your funds.";
const DEFAULT_KEYWORDS: &str = "crypto exchange, instant swap, non-custodial, bitcoin, ethereum, \
    usdt, no account";

/// Account and sign-in pages: useful to people, not to search results.
const PRIVATE: [&str; 13] = [
    "/orders",
    "/wallet",
    "/dashboard",
    "/profile",
    "/affiliate",
    "/api",
    "/api-management",
    "/signin",
    "/auth",
    "/signup",
    "/forgot-password",
    "/reset-password",
    "/verify-email",
];

/// The head of the page at `path` in `language`: pair pages, help articles and blog posts in
/// that language where the app or the content has it (the prerendered pages get the app's own
/// head in `spa.rs`; the others are English until the app writes its own).
pub fn page_meta(state: &AppState, path: &str, language: Language) -> PageMeta {
    let site = &state.config.site_name;
    let page = |title: &str, description: &str| PageMeta {
        title: full_title(title, site, language),
        description: description.to_owned(),
        keywords: DEFAULT_KEYWORDS.to_owned(),
        og_type: "website",
        noindex: false,
        found: true,
    };
    let path = path.trim_end_matches('/');
    let path = if path.is_empty() { "/" } else { path };
    if PRIVATE.contains(&path) {
        return PageMeta {
            noindex: true,
            ..page(private_title(path), DEFAULT_DESCRIPTION)
        };
    }
    if path == "/admin" || path.starts_with("/admin/") {
        return PageMeta {
            noindex: true,
            ..page("Back office", DEFAULT_DESCRIPTION)
        };
    }
    if let Some(id) = path
        .strip_prefix("/order/")
        .or_else(|| path.strip_prefix("/order-details/"))
    {
        return PageMeta {
            noindex: true,
            ..page(&format!("Order {}", truncate(id, 40)), DEFAULT_DESCRIPTION)
        };
    }
    match path {
        "/" => PageMeta {
            title: format!("{site} — instant crypto exchange"),
            ..page("", DEFAULT_DESCRIPTION)
        },
        "/exchange/all-pairs" => page(
            "All exchange pairs",
            "Every pair you can swap, with a link to each exchange page.",
        ),
        "/markets" => page(
            "Cryptocurrency Markets",
            "Prices, market capitalisation, volume and 7-day charts of the largest cryptocurrencies.",
        ),
        "/convert" => page(
            "Crypto converter",
            "Convert an amount of one cryptocurrency into another at the current rate.",
        ),
        "/help" => page(
            "Help Centre",
            "Guides to exchanging, fees, limits, tracking, refunds, two-factor authentication and account security.",
        ),
        "/faq" => page(
            "Frequently asked questions",
            "Quick answers about exchanges, accounts, security, refunds and the partner API.",
        ),
        "/status" => page(
            "System status",
            "The measured status of the exchange, its liquidity providers and each network, with incident history.",
        ),
        "/about" => page(
            "About",
            "Our mission, vision and roadmap: a non-custodial exchange anyone can run.",
        ),
        "/blog" => page("Blog", "News and guides about swapping crypto safely."),
        "/presale" => page(
            "Token presale",
            "The utility token: fee discounts of up to 50%, governance, staking and priority support.",
        ),
        "/contact" => page(
            "Contact us",
            "Write to our support team: we answer within 24 hours on business days.",
        ),
        "/track" => page(
            "Track an order",
            "An order's status by its id, and the orders made on this device.",
        ),
        "/terms" => page("Terms of Service", "The terms of using the exchange."),
        "/privacy" => page("Privacy Policy", "What data the exchange keeps and why."),
        "/api-docs" | "/documentation" => page(
            "API documentation",
            "The partner API: endpoints, signing and examples.",
        ),
        "/language-test" => PageMeta {
            noindex: true,
            ..page("Language test", DEFAULT_DESCRIPTION)
        },
        _ => dynamic_meta(state, path, language).unwrap_or_else(|| PageMeta {
            noindex: true,
            found: false,
            ..page("Page Not Found", DEFAULT_DESCRIPTION)
        }),
    }
}

fn private_title(path: &str) -> &'static str {
    match path {
        "/orders" => "My Orders",
        "/wallet" => "Wallet",
        "/dashboard" => "Dashboard",
        "/profile" => "Profile",
        "/affiliate" => "Affiliate Program",
        "/api" | "/api-management" => "API Management",
        "/signup" => "Sign up",
        "/forgot-password" => "Forgot password",
        "/reset-password" => "Reset password",
        "/verify-email" => "Email verification",
        _ => "Sign in",
    }
}

/// A page's title as the app writes it (`PageMeta`, web/src/components/seo/page-meta.tsx): the
/// site's name after the page's own title unless that names it already, then the language's
/// name for languages other than English.
fn full_title(title: &str, site: &str, language: Language) -> String {
    let mut full = title.to_owned();
    if !title.contains(site) {
        full.push_str(" | ");
        full.push_str(site);
    }
    if language != Language::En {
        full.push_str(" | ");
        full.push_str(language.name());
    }
    full
}

const PAIR_TITLE: &str = "Exchange {{from}} ({{fromNetwork}}) to {{to}} ({{toNetwork}})";
const PAIR_DESCRIPTION: &str = "Swap {{from}} on {{fromNetwork}} for {{to}} on {{toNetwork}} \
    at a float or fixed rate, with no account: live quote, limits and network fees.";

/// A pair page's head: the pair's own title and description in `language`.
fn pair_meta(
    catalogue: &crate::domain::currency::Catalogue,
    site: &str,
    pair: &str,
    language: Language,
) -> Option<PageMeta> {
    let (from, to) = pair.split_once('-')?;
    let from = catalogue.get(&from.to_ascii_uppercase())?;
    let to = catalogue.get(&to.to_ascii_uppercase())?;
    // The app's texts for pair pages in this language, else its English ones.
    let texts = super::spa::pair_page_texts(language);
    let fill = |template: &str| {
        template
            .replace("{{from}}", &from.coin)
            .replace("{{fromNetwork}}", &from.network)
            .replace("{{to}}", &to.coin)
            .replace("{{toNetwork}}", &to.network)
    };
    let title = fill(texts.as_ref().map_or(PAIR_TITLE, |t| t.title.as_str()));
    // Each pair page describes its own pair (never the home page's words): the app's
    // template in this language when it has one, else the English one.
    let description = fill(
        texts
            .as_ref()
            .and_then(|t| t.description_template.as_deref())
            .unwrap_or(PAIR_DESCRIPTION),
    );
    Some(PageMeta {
        title: full_title(&title, site, language),
        description,
        keywords: format!(
            "{} to {}, {} {} exchange, swap {}, buy {}",
            from.coin, to.coin, from.name, to.name, from.coin, to.coin
        )
        .to_lowercase(),
        og_type: "website",
        noindex: false,
        found: true,
    })
}

/// Pair pages, help articles and blog posts: known only from the catalogue and the content.
fn dynamic_meta(state: &AppState, path: &str, language: Language) -> Option<PageMeta> {
    let site = &state.config.site_name;
    if let Some(pair) = path.strip_prefix("/exchange/") {
        return pair_meta(state.catalogue, site, pair, language);
    }
    let (collection, slug) = if let Some(slug) = path.strip_prefix("/help/articles/") {
        ("help", slug)
    } else if let Some(rest) = path.strip_prefix("/blog/") {
        if let Some(category) = rest.strip_prefix("category/") {
            return Some(listing(site, &format!("Blog: {category}"), language));
        }
        if let Some(tag) = rest.strip_prefix("tag/") {
            return Some(listing(site, &format!("Posts tagged {tag}"), language));
        }
        ("blog", rest)
    } else {
        return None;
    };
    let document = content::list(collection, language)?
        .into_iter()
        .find(|d| d.slug == slug)?;
    Some(PageMeta {
        title: full_title(&document.title, site, language),
        description: document
            .summary
            .unwrap_or_else(|| DEFAULT_DESCRIPTION.to_owned()),
        keywords: if document.tags.is_empty() {
            DEFAULT_KEYWORDS.to_owned()
        } else {
            document.tags.join(", ")
        },
        og_type: if collection == "blog" {
            "article"
        } else {
            "website"
        },
        noindex: false,
        found: true,
    })
}

fn listing(site: &str, title: &str, language: Language) -> PageMeta {
    PageMeta {
        title: full_title(&truncate(title, 80), site, language),
        description: "News and guides about swapping crypto safely.".into(),
        keywords: DEFAULT_KEYWORDS.into(),
        og_type: "website",
        noindex: false,
        found: true,
    }
}

fn truncate(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

/// Text for an HTML attribute or element.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// The app's `index.html` with `meta`'s head in place of the built-in title and description.
pub fn render_index(
    index: &str,
    meta: &PageMeta,
    public_url: &str,
    path: &str,
    lang: &str,
    site_config: &str,
) -> String {
    let base = public_url.trim_end_matches('/');
    let page = format!("{base}{path}");
    let in_language = |code: &str| {
        if code == "en" {
            page.clone()
        } else {
            format!("{page}?lang={code}")
        }
    };
    // Each language version is its own canonical page, as search engines want with hreflang.
    let canonical = in_language(lang);
    let site_title = escape(&meta.title);
    let description = escape(&meta.description);
    let mut head = format!(
        "<title data-server-head>{site_title}</title>\n    <meta name=\"description\" content=\"{description}\" data-server-head />\n    \
         <meta name=\"keywords\" content=\"{}\" />\n    <link rel=\"canonical\" href=\"{}\" />\n    \
         <meta property=\"og:type\" content=\"{}\" />\n    <meta property=\"og:title\" content=\"{site_title}\" />\n    \
         <meta property=\"og:description\" content=\"{description}\" />\n    <meta property=\"og:url\" content=\"{}\" />\n    \
         <meta name=\"twitter:card\" content=\"summary\" />\n    <meta name=\"twitter:title\" content=\"{site_title}\" />\n    \
         <meta name=\"twitter:description\" content=\"{description}\" />",
        escape(&meta.keywords),
        escape(&canonical),
        meta.og_type,
        escape(&canonical),
    );
    // The public settings, so the first paint already knows the site name, fees and sandbox
    // mode (no layout shift when they arrive).
    head.push_str(&format!(
        "\n    <meta name=\"ferry-config\" content=\"{}\" />",
        escape(site_config)
    ));
    if meta.noindex {
        head.push_str("\n    <meta name=\"robots\" content=\"noindex\" data-server-head />");
    } else {
        for language in SUPPORTED_LANGUAGES {
            let href = in_language(language.code());
            head.push_str(&format!(
                "\n    <link rel=\"alternate\" hreflang=\"{}\" href=\"{}\" data-server-head />",
                language.code(),
                escape(&href)
            ));
        }
        head.push_str(&format!(
            "\n    <link rel=\"alternate\" hreflang=\"x-default\" href=\"{}\" data-server-head />",
            escape(&page)
        ));
    }
    let without_title = replace_between(index, "<title>", "</title>", "");
    let without_description = remove_tag(&without_title, "<meta", "name=\"description\"");
    let html = without_description.replacen("<title></title>", &head, 1);
    html.replacen("<html lang=\"en\">", &format!("<html lang=\"{lang}\">"), 1)
}

fn replace_between(text: &str, start: &str, end: &str, with: &str) -> String {
    match (text.find(start), text.find(end)) {
        (Some(a), Some(b)) if b > a => {
            format!("{}{start}{with}{end}{}", &text[..a], &text[b + end.len()..])
        }
        _ => text.to_owned(),
    }
}

/// Removes the first `<meta …>` element whose text contains `marker`.
fn remove_tag(text: &str, open: &str, marker: &str) -> String {
    let mut from = 0;
    while let Some(offset) = text[from..].find(open) {
        let start = from + offset;
        let Some(length) = text[start..].find('>') else {
            break;
        };
        let end = start + length + 1;
        if text[start..end].contains(marker) {
            return format!(
                "{}{}",
                text[..start].trim_end_matches([' ', '\n']),
                &text[end..]
            );
        }
        from = end;
    }
    text.to_owned()
}

async fn sitemap(State(state): State<AppState>) -> Response {
    let base = state.config.public_url.trim_end_matches('/').to_owned();
    let mut paths: Vec<String> = [
        "/",
        "/exchange/all-pairs",
        "/markets",
        "/convert",
        "/help",
        "/faq",
        "/status",
        "/about",
        "/blog",
        "/presale",
        "/contact",
        "/track",
        "/terms",
        "/privacy",
        "/api-docs",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect();
    paths.extend(
        crate::domain::currency::popular_pairs()
            .iter()
            .map(|(from, to)| format!("/exchange/{}-{}", from.to_lowercase(), to.to_lowercase())),
    );
    for article in content::list("help", Language::En).unwrap_or_default() {
        paths.push(format!("/help/articles/{}", article.slug));
    }
    for post in content::list("blog", Language::En).unwrap_or_default() {
        paths.push(format!("/blog/{}", post.slug));
    }
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for path in paths {
        xml.push_str(&format!(
            "  <url><loc>{}</loc></url>\n",
            escape(&format!("{base}{path}"))
        ));
    }
    xml.push_str("</urlset>\n");
    (
        [(header::CONTENT_TYPE, "application/xml; charset=utf-8")],
        xml,
    )
        .into_response()
}

async fn robots(State(state): State<AppState>) -> Response {
    let base = state.config.public_url.trim_end_matches('/');
    let mut text = String::from("User-agent: *\nDisallow: /api/\n");
    for path in PRIVATE {
        if path != "/api" {
            text.push_str(&format!("Disallow: {path}\n"));
        }
    }
    text.push_str("Disallow: /order/\nDisallow: /order-details/\nDisallow: /admin\n");
    text.push_str(&format!("\nSitemap: {base}/sitemap.xml\n"));
    ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response()
}

/// Status for the app's HTML at `path`.
pub fn status_of(meta: &PageMeta) -> StatusCode {
    if meta.found {
        StatusCode::OK
    } else {
        StatusCode::NOT_FOUND
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INDEX: &str = "<!doctype html>\n<html lang=\"en\">\n  <head>\n    <title>Ferry — x</title>\n    <meta\n      name=\"description\"\n      content=\"old\"\n    />\n  </head>\n</html>";

    fn meta(noindex: bool) -> PageMeta {
        PageMeta {
            title: "Exchange BTC to ETH | Ferry".into(),
            description: "Swap \"BTC\" <fast>".into(),
            keywords: "btc".into(),
            og_type: "website",
            noindex,
            found: true,
        }
    }

    #[test]
    fn titles_end_with_the_site_name_then_the_language_as_the_app_writes_them() {
        assert_eq!(
            full_title("Markets", "Ferry", Language::En),
            "Markets | Ferry"
        );
        assert_eq!(
            full_title("Märkte", "Ferry", Language::De),
            "Märkte | Ferry | Deutsch"
        );
        assert_eq!(
            full_title("Ferry — instant crypto exchange", "Ferry", Language::Ja),
            "Ferry — instant crypto exchange | 日本語"
        );
    }

    #[test]
    fn each_pair_page_describes_its_own_pair() {
        let catalogue = crate::domain::currency::Catalogue::embedded();
        let btc_eth = pair_meta(catalogue, "Ferry", "btc-eth", Language::En).unwrap();
        let ltc_xmr = pair_meta(catalogue, "Ferry", "ltc-xmr", Language::En).unwrap();
        assert!(btc_eth.description.contains("BTC") && btc_eth.description.contains("ETH"));
        assert!(ltc_xmr.description.contains("LTC") && ltc_xmr.description.contains("XMR"));
        assert_ne!(btc_eth.description, ltc_xmr.description);
        assert_ne!(btc_eth.description, DEFAULT_DESCRIPTION);
        assert!(
            !btc_eth.description.contains("{{"),
            "{}",
            btc_eth.description
        );
        assert!(pair_meta(catalogue, "Ferry", "btc-nope", Language::En).is_none());
    }

    #[test]
    fn the_head_is_replaced_and_escaped() {
        let html = render_index(
            INDEX,
            &meta(false),
            "https://ferry.example",
            "/exchange/btc-eth",
            "de",
            "{\"sandbox\":true}",
        );
        assert!(
            html.contains("<title data-server-head>Exchange BTC to ETH | Ferry</title>"),
            "{html}"
        );
        assert!(!html.contains("content=\"old\""), "{html}");
        assert!(html.contains("content=\"Swap &quot;BTC&quot; &lt;fast&gt;\""));
        // The German page is its own canonical page; the English one is the default.
        assert!(html.contains(
            "<link rel=\"canonical\" href=\"https://ferry.example/exchange/btc-eth?lang=de\" />"
        ));
        assert!(
            html.contains("hreflang=\"x-default\" href=\"https://ferry.example/exchange/btc-eth\"")
        );
        assert!(html.contains("hreflang=\"en\" href=\"https://ferry.example/exchange/btc-eth\""));
        assert!(
            html.contains(
                "hreflang=\"ja\" href=\"https://ferry.example/exchange/btc-eth?lang=ja\""
            )
        );
        assert!(html.contains("<html lang=\"de\">"));
        assert!(!html.contains("noindex"));
        assert!(
            html.contains("<meta name=\"ferry-config\" content=\"{&quot;sandbox&quot;:true}\" />")
        );
        let private = render_index(
            INDEX,
            &meta(true),
            "https://ferry.example",
            "/orders",
            "en",
            "{}",
        );
        assert!(private.contains("<meta name=\"robots\" content=\"noindex\" data-server-head />"));
        assert!(!private.contains("hreflang"));
    }
}
