//! `GET /api/content/{collection}/{slug}`: Ferry's own Markdown documents, rendered.

use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};

use super::AppState;
use super::error::ApiError;
use crate::services::content::{self, Document, Operator};

pub fn router() -> Router<AppState> {
    Router::new().route("/content/{collection}/{slug}", get(get_document))
}

async fn get_document(
    State(state): State<AppState>,
    Path((collection, slug)): Path<(String, String)>,
) -> Result<Json<Document>, ApiError> {
    let config = &state.config;
    let operator = Operator {
        company_name: &config.company_name,
        site_name: &config.site_name,
        support_email: &config.support_email,
        public_url: &config.public_url,
    };
    content::document(&collection, &slug, &operator)
        .map(Json)
        .ok_or_else(|| ApiError::NotFoundWith("No such document".into()))
}
