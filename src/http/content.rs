//! Ferry's own Markdown documents: `GET /api/content/{collection}` (a page of the list, the
//! blog filterable by category and tag), `GET /api/content/{collection}/{slug}` (one document,
//! rendered), `GET /api/help/search?q=` and the blog's RSS feed at `/blog/rss.xml`.

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use super::AppState;
use super::error::ApiError;
use super::extract::ApiQuery;
use crate::domain::language::Language;
use crate::services::content::{self, Document, Operator};

/// Blog posts per page of the listing.
const PAGE_SIZE: usize = 6;
const SEARCH_LIMIT: usize = 10;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/content/{collection}", get(list_documents))
        .route("/api/content/{collection}/{slug}", get(get_document))
        .route("/api/help/search", get(search_help))
}

/// Routes outside `/api`.
pub fn feed_router() -> Router<AppState> {
    Router::new().route("/blog/rss.xml", get(blog_feed))
}

fn operator(state: &AppState) -> Operator<'_> {
    let config = &state.config;
    Operator {
        company_name: &config.company_name,
        site_name: &config.site_name,
        support_email: &config.support_email,
        public_url: &config.public_url,
    }
}

#[derive(Deserialize)]
struct ListQuery {
    #[serde(default)]
    category: Option<String>,
    #[serde(default)]
    tag: Option<String>,
    #[serde(default)]
    page: Option<usize>,
    #[serde(default)]
    lang: Option<String>,
}

/// The reader's language (`lang`): documents come in it where they are translated. A code we
/// do not have reads as English, as the app treats it.
fn reading_language(lang: Option<&str>) -> Language {
    lang.and_then(Language::parse).unwrap_or(Language::En)
}

#[utoipa::path(
    get,
    path = "/api/content/{collection}",
    tag = "site",
    summary = "Documents of a collection (the blog is paged)",
    params(("collection" = String, Path), ("category" = Option<String>, Query), ("tag" = Option<String>, Query), ("page" = Option<u32>, Query), ("lang" = Option<String>, Query, description = "the reader's language (en when absent or unknown)")),
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn list_documents(
    Path(collection): Path<String>,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> Result<Json<Value>, ApiError> {
    let items = content::list(&collection, reading_language(query.lang.as_deref()))
        .ok_or_else(|| ApiError::NotFoundWith("No such collection".into()))?;
    let items: Vec<_> = items
        .into_iter()
        .filter(|d| query.category.is_none() || d.category == query.category)
        .filter(|d| {
            query
                .tag
                .as_deref()
                .is_none_or(|tag| d.tags.iter().any(|t| t == tag))
        })
        .collect();
    if collection != "blog" {
        return Ok(Json(json!({ "items": items, "total": items.len() })));
    }
    let total = items.len();
    let pages = total.div_ceil(PAGE_SIZE).max(1);
    let page = query.page.unwrap_or(1).clamp(1, pages);
    let shown: Vec<_> = items
        .into_iter()
        .skip((page - 1) * PAGE_SIZE)
        .take(PAGE_SIZE)
        .collect();
    Ok(Json(json!({
        "items": shown,
        "total": total,
        "page": page,
        "pages": pages,
    })))
}

#[utoipa::path(
    get,
    path = "/api/content/{collection}/{slug}",
    tag = "site",
    summary = "One document, rendered",
    params(("collection" = String, Path), ("slug" = String, Path), ("lang" = Option<String>, Query, description = "the reader's language (en when absent or unknown)")),
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn get_document(
    State(state): State<AppState>,
    Path((collection, slug)): Path<(String, String)>,
    ApiQuery(query): ApiQuery<LanguageQuery>,
) -> Result<Json<Document>, ApiError> {
    let language = reading_language(query.lang.as_deref());
    content::document(&collection, &slug, language, &operator(&state))
        .map(Json)
        .ok_or_else(|| ApiError::NotFoundWith("No such document".into()))
}

#[derive(Deserialize)]
struct LanguageQuery {
    #[serde(default)]
    lang: Option<String>,
}

#[derive(Deserialize)]
struct SearchQuery {
    #[serde(default)]
    q: String,
    #[serde(default)]
    lang: Option<String>,
}

#[utoipa::path(
    get,
    path = "/api/help/search",
    tag = "site",
    summary = "Search the help articles",
    params(("q" = Option<String>, Query), ("lang" = Option<String>, Query, description = "the reader's language (en when absent or unknown)")),
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn search_help(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<SearchQuery>,
) -> Result<Json<Value>, ApiError> {
    if query.q.len() > 200 {
        return Err(ApiError::BadRequest("The search is too long".into()));
    }
    let language = reading_language(query.lang.as_deref());
    let hits = content::search("help", &query.q, language, SEARCH_LIMIT, &operator(&state));
    Ok(Json(json!({ "query": query.q, "items": hits })))
}

async fn blog_feed(State(state): State<AppState>) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "application/rss+xml; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        content::rss(&operator(&state)),
    )
}
