//! `GET /api/config`: the public settings the web app needs.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;

use super::AppState;
use crate::config::Config;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/config", get(get_site_config))
}

#[derive(Serialize)]
pub struct SiteConfig {
    site_name: String,
    support_email: String,
    company_name: String,
    company_address: Option<String>,
    presale_url: Option<String>,
    /// When support answers (`FERRY_SUPPORT_HOURS`); none when it always does.
    support_hours: Option<String>,
    /// Support answers around the clock: the only case the site may say "24/7".
    support_always_open: bool,
    public_url: String,
    fees: Fees,
    languages: Vec<&'static str>,
    default_language: &'static str,
    sandbox: bool,
    trusted_since: u16,
}

#[derive(Serialize)]
struct Fees {
    /// Percent, as a decimal string ("0.5").
    float_percent: String,
    fixed_percent: String,
}

#[utoipa::path(
    get,
    path = "/api/config",
    tag = "site",
    summary = "Public settings of the site",
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn get_site_config(State(state): State<AppState>) -> Json<SiteConfig> {
    Json(public_config(&state.config))
}

/// The public settings, also written into every page's HTML so the app has them at once.
pub fn public_config(config: &Config) -> SiteConfig {
    SiteConfig {
        site_name: config.site_name.clone(),
        support_email: config.support_email.clone(),
        company_name: config.company_name.clone(),
        company_address: config
            .company_address
            .clone()
            .filter(|a| !a.trim().is_empty()),
        presale_url: config.presale_url.clone().filter(|u| !u.is_empty()),
        support_hours: Some(config.support_hours.trim().to_owned())
            .filter(|h| !h.is_empty() && !config.support_always_open()),
        support_always_open: config.support_always_open(),
        public_url: config.public_url.clone(),
        fees: Fees {
            float_percent: config.fee_float_percent.to_string(),
            fixed_percent: config.fee_fixed_percent.to_string(),
        },
        languages: config.languages.iter().map(|l| l.code()).collect(),
        default_language: "en",
        sandbox: config.is_sandbox(),
        trusted_since: config.trusted_since,
    }
}
