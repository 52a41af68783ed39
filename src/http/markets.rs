//! `GET /api/coins`: the markets page's coins (spec/accounts-and-pages.md §3, §7).

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};

use super::AppState;
use crate::services::market_data::CoinList;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/coins", get(list_coins))
}

#[utoipa::path(
    get,
    path = "/api/coins",
    tag = "site",
    summary = "Market data of the largest coins",
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn list_coins(State(state): State<AppState>) -> Json<CoinList> {
    Json((*state.markets.current()).clone())
}
