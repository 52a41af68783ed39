//! The HTTP layer: thin axum handlers that parse, call a service and map the result.

mod accounts;
mod admin;
mod affiliate;
pub mod auth;
mod contact;
mod content;
pub mod edge;
pub mod error;
pub mod exchange;
mod extract;
mod health;
mod markets;
pub mod metrics;
mod openapi;
pub mod orders;
mod partner_api;
mod partners;
mod rates;
mod security;
mod seo;
pub mod serve;
pub(crate) mod site_config;
pub mod spa;
mod status;

use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::response::Response;

use crate::config::Config;
use crate::domain::currency::Catalogue;
use crate::providers::LiquidityProvider;
use crate::services::availability::CurrencySwitches;
use crate::store::DynStore;

/// What every handler may reach: one pointer, so the per-request clones the router makes (one
/// per layer and extractor) cost one atomic increment, not one per service (the profile of a
/// quote showed them at an eighth of its time).
#[derive(Clone)]
pub struct AppState(Arc<AppContext>);

impl AppState {
    pub fn new(context: AppContext) -> AppState {
        AppState(Arc::new(context))
    }
}

impl std::ops::Deref for AppState {
    type Target = AppContext;

    fn deref(&self) -> &AppContext {
        &self.0
    }
}

/// The services, settings and caches behind `AppState`.
pub struct AppContext {
    pub config: Arc<Config>,
    pub store: DynStore,
    pub metrics: metrics_exporter_prometheus::PrometheusHandle,
    pub catalogue: &'static Catalogue,
    pub provider: Arc<dyn LiquidityProvider>,
    pub switches: CurrencySwitches,
    pub limits: Arc<crate::limits::Limits>,
    pub orders: Arc<crate::services::orders::Orders>,
    pub accounts: Arc<crate::services::accounts::Accounts>,
    pub social: Arc<crate::services::oauth::SocialSignIn>,
    pub contact: Arc<crate::services::contact::Contact>,
    pub status: Arc<crate::services::status::StatusService>,
    pub markets: Arc<crate::services::market_data::MarketData>,
    pub rates: Arc<crate::services::rate_export::RateExport>,
    /// The sandbox market itself, for the operator's simulation tools.
    pub sandbox: Arc<crate::providers::sandbox::SandboxMarket>,
    pub partners: Arc<crate::services::partners::Partners>,
    pub currency_list: exchange::CurrencyListCache,
    /// Turns true when the server starts stopping: long answers (event streams) end.
    pub stopping: tokio::sync::watch::Receiver<bool>,
    pub pages: spa::PageCache,
}

/// Largest request body the site API reads.
const BODY_LIMIT_BYTES: usize = 64 * 1024;

/// The routes, each tagged with its pattern for the metrics; `site` puts the edge around them.
pub fn router(state: AppState) -> Router {
    // Every route is written with its whole path: a nested router would strip and rebuild each
    // request's URI on its way in.
    Router::new()
        .merge(site_config::router())
        .merge(affiliate::router())
        .merge(exchange::router())
        .merge(orders::router())
        .merge(accounts::router())
        .merge(content::router())
        .merge(contact::router())
        .merge(status::router())
        .merge(markets::router())
        .merge(partners::router())
        .merge(partner_api::router())
        .merge(openapi::router())
        .merge(admin::router(&state))
        // `/api` alone is a page of the app (API Management), not an API call.
        .route("/api", axum::routing::get(spa::serve))
        .route("/api/", axum::routing::any(error::api_not_found))
        .route("/api/{*rest}", axum::routing::any(error::api_not_found))
        .merge(health::router())
        .merge(content::feed_router())
        .merge(seo::router())
        .merge(rates::router())
        .fallback(spa::serve)
        .route_layer(edge::TagRoute)
        .with_state(state)
}

/// The whole site as it is served: the edge (request ids, log spans, the time limit, panics,
/// metrics, security headers) around the router, applied once per request, and the largest
/// body a request may send.
pub fn site(
    router: Router,
    public_url: &str,
) -> edge::Edge<
    impl tower::Service<
        axum::extract::Request,
        Response = Response,
        Error = std::convert::Infallible,
        Future: Send,
    > + Clone
    + Send
    + 'static,
> {
    use tower::Layer;
    edge::Edge::new(
        DefaultBodyLimit::max(BODY_LIMIT_BYTES).layer(router),
        security::headers(public_url),
    )
}
