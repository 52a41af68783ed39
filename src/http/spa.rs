//! The React app, embedded in the binary. Hashed assets are served precompressed (brotli or
//! gzip, chosen by `Accept-Encoding`) with a one-year immutable cache; `index.html`, which
//! names them, is never cached; client routes fall back to it.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

use super::AppState;
use super::error::ApiError;
use super::seo;
use crate::domain::language::Language;

#[derive(RustEmbed)]
#[folder = "web/dist/"]
#[allow_missing = true]
struct WebAssets;

const IMMUTABLE: &str = "public, max-age=31536000, immutable";
const NO_CACHE: &str = "no-cache";

pub async fn serve(
    State(state): State<AppState>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return StatusCode::METHOD_NOT_ALLOWED.into_response();
    }
    let path = uri.path().trim_start_matches('/');
    // `/api` itself is the API Management page; everything under it is the JSON API.
    if path.starts_with("api/") {
        return ApiError::NotFound.into_response();
    }
    // Prerendered pages are written into the app's HTML, never served on their own.
    if !path.is_empty() && !path.starts_with(PRERENDERED) && WebAssets::get(path).is_some() {
        return asset(path, &headers);
    }
    // A missing file (its last segment has an extension) is a 404, not the app's HTML.
    let last_segment = path.rsplit('/').next().unwrap_or("");
    if last_segment.contains('.') {
        return StatusCode::NOT_FOUND.into_response();
    }
    if let Some(index) = WebAssets::get("index.html") {
        app_page(
            &state,
            &uri,
            &headers,
            &String::from_utf8_lossy(&index.data),
        )
    } else {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            "The web app is not built into this binary: run `make build`.",
        )
            .into_response()
    }
}

/// The app's HTML for a route, with the route's head written in (see `seo`) and, where the build
/// prerendered it, the route's first screen in the visitor's language.
fn app_page(state: &AppState, uri: &Uri, headers: &HeaderMap, index: &str) -> Response {
    let language = page_language(uri, headers);
    let accepted = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let gzip_accepted = accepts(accepted, "gzip");
    match prerendered_name(uri.path()) {
        Some(name) => state
            .pages
            .get_or_render(name, language, |path| {
                render_page(state, path, language, index)
            })
            .respond(gzip_accepted),
        None => render_page(state, uri.path(), language, index).respond(gzip_accepted),
    }
}

/// An app page as the server sends it, with its gzip encoding once it has been made.
struct RenderedPage {
    status: StatusCode,
    html: Bytes,
    gzipped: Option<Bytes>,
}

impl RenderedPage {
    fn respond(&self, gzip_accepted: bool) -> Response {
        let (body, encoding) = match (gzip_accepted, &self.gzipped) {
            (false, _) => (self.html.clone(), None),
            (true, Some(gzipped)) => (gzipped.clone(), Some("gzip")),
            (true, None) => (Bytes::from(gzip(&self.html)), Some("gzip")),
        };
        let mut response = (
            self.status,
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, NO_CACHE),
                // The page's language comes from the `lang` parameter, the cookie or the browser's.
                (header::VARY, "Accept-Encoding, Accept-Language, Cookie"),
            ],
            body,
        )
            .into_response();
        if let Some(encoding) = encoding {
            response.headers_mut().insert(
                header::CONTENT_ENCODING,
                header::HeaderValue::from_static(encoding),
            );
        }
        response
    }
}

/// Prerendered pages as served, by page and language. Their HTML is the same for every visitor
/// and they are the most visited, so each is rendered and compressed once; keyed by the build's
/// page names, the cache holds at most the build's pages in each language.
#[derive(Clone, Default)]
pub struct PageCache(Arc<Mutex<HashMap<PageKey, Arc<RenderedPage>>>>);

/// A prerendered page's name (see `prerendered_name`) and language.
type PageKey = (&'static str, Language);

impl PageCache {
    fn get_or_render(
        &self,
        name: &'static str,
        language: Language,
        render: impl FnOnce(&str) -> RenderedPage,
    ) -> Arc<RenderedPage> {
        if let Some(page) = self
            .0
            .lock()
            .expect("page cache lock")
            .get(&(name, language))
        {
            return page.clone();
        }
        let path = if name == "index" {
            "/".to_owned()
        } else {
            format!("/{name}")
        };
        let mut page = render(&path);
        page.gzipped = Some(Bytes::from(gzip(&page.html)));
        let page = Arc::new(page);
        self.0
            .lock()
            .expect("page cache lock")
            .insert((name, language), page.clone());
        page
    }
}

fn render_page(state: &AppState, path: &str, language: Language, index: &str) -> RenderedPage {
    let site_config = super::site_config::public_config(&state.config);
    let site_config_json = serde_json::to_value(&site_config).unwrap_or_default();
    let mut meta = seo::page_meta(state, path, language);
    if let Some(head) = prerendered(path, language, &site_config_json, "head.json")
        .and_then(|file| serde_json::from_slice::<PrerenderedHead>(&file).ok())
    {
        meta.title = head.title;
        if let Some(description) = head.description {
            meta.description = description;
        }
    }
    let html = seo::render_index(
        index,
        &meta,
        &state.config.public_url,
        path,
        language.code(),
        &site_config_json.to_string(),
    );
    let html = with_route_preloads(html, path, language.code());
    let html = match prerendered(path, language, &site_config_json, "html") {
        Some(page) => with_first_screen(&html, language, &page),
        None => html,
    };
    RenderedPage {
        status: seo::status_of(&meta),
        html: Bytes::from(html),
        gzipped: None,
    }
}

/// The language the app will show this visitor, resolved as the app resolves it: the `lang`
/// parameter, the stored choice (mirrored in the `language` cookie), the browser's languages.
fn page_language(uri: &Uri, headers: &HeaderMap) -> Language {
    let param = uri
        .query()
        .and_then(|q| q.split('&').find_map(|pair| pair.strip_prefix("lang=")));
    let stored = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| pair.trim().strip_prefix("language="));
    let accept_language = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok());
    Language::resolve(param, stored, accept_language)
}

/// Where the build writes each page's first screen, `prerender/{language}/{path}.html`, the
/// title and description the app gives it, `prerender/{language}/{path}.head.json`, and the
/// public settings it rendered them with, `prerender/config.json`.
const PRERENDERED: &str = "prerender/";

/// The head of a prerendered page, as the app writes it.
#[derive(serde::Deserialize)]
pub(super) struct PrerenderedHead {
    pub title: String,
    pub description: Option<String>,
    /// Pair pages: the description with the title's placeholders.
    #[serde(default, rename = "descriptionTemplate")]
    pub description_template: Option<String>,
}

/// The app's title template (`pair.title`, with `{{from}}`, `{{fromNetwork}}`, `{{to}}` and
/// `{{toNetwork}}`) and description of pair pages in `language`, as the build wrote them
/// (`prerender/{language}/pair-page.json`).
pub(super) fn pair_page_texts(language: Language) -> Option<PrerenderedHead> {
    let file = WebAssets::get(&format!("{PRERENDERED}{}/pair-page.json", language.code()))?;
    serde_json::from_slice(&file.data).ok()
}

/// The build's `{name}.{extension}` file of the page at `path` in `language`, if the build made
/// one and rendered it with the settings this server has (else the app would render something
/// else).
fn prerendered(
    path: &str,
    language: Language,
    settings: &serde_json::Value,
    extension: &str,
) -> Option<std::borrow::Cow<'static, [u8]>> {
    static BUILT_WITH: OnceLock<Option<serde_json::Value>> = OnceLock::new();
    let built_with = BUILT_WITH.get_or_init(|| {
        WebAssets::get(&format!("{PRERENDERED}config.json"))
            .and_then(|f| serde_json::from_slice(&f.data).ok())
    });
    if !same_rendered_settings(built_with.as_ref()?, settings) {
        return None;
    }
    let name = prerendered_name(path)?;
    WebAssets::get(&format!(
        "{PRERENDERED}{}/{name}.{extension}",
        language.code()
    ))
    .map(|f| f.data)
}

/// The name under which the build prerendered the page at `path` (`index` for `/`), if it did
/// in any language (`prerender/{language}/{name}.html`).
fn prerendered_name(path: &str) -> Option<&'static str> {
    static NAMES: OnceLock<HashSet<String>> = OnceLock::new();
    let names = NAMES.get_or_init(|| {
        WebAssets::iter()
            .filter_map(|file| {
                let (_language, page) = file.strip_prefix(PRERENDERED)?.split_once('/')?;
                Some(page.strip_suffix(".html")?.to_owned())
            })
            .collect()
    });
    let name = match path.trim_end_matches('/') {
        "" => "index",
        path => path.strip_prefix('/')?,
    };
    names.get(name).map(String::as_str)
}

/// The page with its prerendered first screen in `#root`, marked with its language for the app
/// (`web/src/main.tsx`). Its scripts then only make the page interactive, so they load at low
/// priority, after what the first paint needs.
fn with_first_screen(html: &str, language: Language, page: &[u8]) -> String {
    html.replacen(
        "<div id=\"root\"></div>",
        &format!(
            "<div id=\"root\" data-prerendered=\"{}\">{}</div>",
            language.code(),
            String::from_utf8_lossy(page)
        ),
        1,
    )
    .replace(
        "<script type=\"module\" crossorigin",
        "<script type=\"module\" fetchpriority=\"low\" crossorigin",
    )
    .replace(
        "<link rel=\"modulepreload\" crossorigin",
        "<link rel=\"modulepreload\" fetchpriority=\"low\" crossorigin",
    )
}

/// Whether two sets of public settings render the same pages: the public URL is only used in
/// links the app writes after it has started.
fn same_rendered_settings(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    let without_url = |v: &serde_json::Value| {
        let mut v = v.clone();
        if let Some(map) = v.as_object_mut() {
            map.remove("public_url");
        }
        v
    };
    without_url(a) == without_url(b)
}

fn gzip(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    // Writing into a Vec cannot fail.
    let _ = encoder.write_all(data);
    encoder.finish().unwrap_or_default()
}

/// A chunk of the app as Vite's build manifest lists it.
#[derive(serde::Deserialize)]
struct Chunk {
    file: String,
    #[serde(default)]
    imports: Vec<String>,
    #[serde(default, rename = "isEntry")]
    is_entry: bool,
}

fn manifest() -> &'static std::collections::HashMap<String, Chunk> {
    static MANIFEST: std::sync::OnceLock<std::collections::HashMap<String, Chunk>> =
        std::sync::OnceLock::new();
    MANIFEST.get_or_init(|| {
        WebAssets::get("manifest.json")
            .and_then(|f| serde_json::from_slice(&f.data).ok())
            .unwrap_or_default()
    })
}

/// The module a route's page is in (the app's lazy routes, `web/src/app/router.tsx`). The
/// landing page preloads nothing more: what `/` loads up front is budgeted.
fn route_module(path: &str) -> Option<&'static str> {
    Some(match path {
        "/markets" => "src/features/markets/components/markets-page.tsx",
        "/help" => "src/features/help/components/help-page.tsx",
        "/faq" => "src/features/faq/components/faq-page.tsx",
        "/status" => "src/features/status/components/status-page.tsx",
        "/contact" => "src/features/contact/components/contact-page.tsx",
        "/about" => "src/features/site/components/about-page.tsx",
        "/presale" => "src/features/site/components/presale-page.tsx",
        "/convert" => "src/features/exchange/components/convert-page.tsx",
        "/exchange/all-pairs" => "src/features/exchange/components/all-pairs-page.tsx",
        _ if path.starts_with("/help/articles/") => "src/features/help/components/article-page.tsx",
        _ if path == "/blog" || path.starts_with("/blog/") => {
            "src/features/blog/components/blog-pages.tsx"
        }
        _ if path.starts_with("/exchange/") => "src/app/routes/exchange-pair.tsx",
        _ => return None,
    })
}

/// `<link rel="modulepreload">` for the route's chunk, what it imports and the page texts, so
/// the browser fetches them with the entry script instead of after it has run.
fn with_route_preloads(html: String, path: &str, lang: &str) -> String {
    let Some(module) = route_module(path) else {
        return html;
    };
    let manifest = manifest();
    let mut files: Vec<&str> = Vec::new();
    let mut pending = vec![module.to_owned(), format!("src/locales/pages/{lang}.json")];
    if module.contains("/faq/") {
        pending.push(format!("src/locales/faq/{lang}.json"));
    }
    while let Some(key) = pending.pop() {
        let Some(chunk) = manifest.get(&key) else {
            continue;
        };
        if chunk.is_entry || files.contains(&chunk.file.as_str()) {
            continue;
        }
        files.push(&chunk.file);
        pending.extend(chunk.imports.iter().cloned());
    }
    let links: String = files
        .iter()
        .filter(|file| !html.contains(&format!("/{file}\"")))
        .map(|file| format!("    <link rel=\"modulepreload\" crossorigin href=\"/{file}\" />\n"))
        .collect();
    html.replacen("</head>", &format!("{links}  </head>"), 1)
}

/// One embedded file, in the best encoding the client accepts that we have.
fn asset(path: &str, headers: &HeaderMap) -> Response {
    let accepted = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let Some(original) = WebAssets::get(path) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let (file, encoding) = ["br", "gzip"]
        .into_iter()
        .filter(|encoding| accepts(accepted, encoding))
        .find_map(|encoding| {
            let suffix = if encoding == "br" { "br" } else { "gz" };
            WebAssets::get(&format!("{path}.{suffix}")).map(|f| (f, Some(encoding)))
        })
        .unwrap_or((original.clone(), None));

    let etag = format!(
        "\"{}{}\"",
        hex::encode(&original.metadata.sha256_hash()[..12]),
        encoding.map(|e| format!("-{e}")).unwrap_or_default()
    );
    let cache = if path.starts_with("assets/") {
        IMMUTABLE
    } else {
        NO_CACHE
    };
    let mime = mime_guess::from_path(path).first_or_octet_stream();

    let mut builder = Response::builder()
        .header(header::CONTENT_TYPE, mime.as_ref())
        .header(header::CACHE_CONTROL, cache)
        .header(header::ETAG, &etag)
        .header(header::VARY, "Accept-Encoding");
    if let Some(encoding) = encoding {
        builder = builder.header(header::CONTENT_ENCODING, encoding);
    }
    let not_modified = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|tags| tags.split(',').any(|t| t.trim() == etag));
    let response = if not_modified {
        builder.status(StatusCode::NOT_MODIFIED).body(Body::empty())
    } else {
        builder.body(Body::from(file.data.into_owned()))
    };
    response.unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
}

/// Whether an `Accept-Encoding` value allows `encoding` (a `q=0` entry refuses it).
fn accepts(accept_encoding: &str, encoding: &str) -> bool {
    accept_encoding.split(',').any(|entry| {
        let mut parts = entry.split(';').map(str::trim);
        let name = parts.next().unwrap_or("");
        let refused = parts.any(|p| {
            p.strip_prefix("q=")
                .and_then(|q| q.parse::<f32>().ok())
                .is_some_and(|q| q == 0.0)
        });
        (name.eq_ignore_ascii_case(encoding) || name == "*") && !refused
    })
}

#[cfg(test)]
mod tests {
    use super::{accepts, page_language, same_rendered_settings};
    use crate::domain::language::Language;
    use axum::http::{HeaderMap, HeaderValue, Uri, header};

    #[test]
    fn the_page_language_comes_from_the_parameter_the_cookie_then_the_browser() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::ACCEPT_LANGUAGE,
            HeaderValue::from_static("fr-FR,fr;q=0.9"),
        );
        let page =
            |uri: &str, headers: &HeaderMap| page_language(&uri.parse::<Uri>().unwrap(), headers);
        assert_eq!(page("/", &headers), Language::Fr);
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; language=ja; b=2"),
        );
        assert_eq!(page("/markets", &headers), Language::Ja);
        assert_eq!(page("/markets?ref=x&lang=de", &headers), Language::De);
        assert_eq!(page("/markets?lang=xx", &headers), Language::En);
        assert_eq!(page("/", &HeaderMap::new()), Language::En);
    }

    #[test]
    fn prerendered_pages_serve_only_the_settings_they_were_rendered_with() {
        let built: serde_json::Value =
            serde_json::from_str(include_str!("../../web/prerender-config.json")).unwrap();
        let mut running = built.clone();
        running["public_url"] = "https://ferry.example".into();
        assert!(
            same_rendered_settings(&built, &running),
            "the public URL only shows in links the app writes"
        );
        running["site_name"] = "Other".into();
        assert!(!same_rendered_settings(&built, &running));
    }

    #[test]
    fn the_build_prerenders_with_the_default_settings() {
        let built: serde_json::Value =
            serde_json::from_str(include_str!("../../web/prerender-config.json")).unwrap();
        let config = crate::config::Config::defaults();
        let defaults =
            serde_json::to_value(crate::http::site_config::public_config(&config)).unwrap();
        assert!(
            same_rendered_settings(&built, &defaults),
            "web/prerender-config.json must be the server's default public settings: {defaults}"
        );
    }

    #[test]
    fn accept_encoding_is_read_with_quality_values() {
        assert!(accepts("gzip, deflate, br", "br"));
        assert!(accepts("br;q=0.9", "br"));
        assert!(!accepts("gzip, br;q=0", "br"));
        assert!(accepts("*", "gzip"));
        assert!(!accepts("", "gzip"));
        assert!(!accepts("gzip", "br"));
    }
}
