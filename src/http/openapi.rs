//! `GET /api/openapi.json`: the OpenAPI 3.1 document of the site API, generated from the
//! handlers' annotations. Every operation may also answer the common error shape, which is
//! added to each operation here rather than repeated on every handler.

use std::sync::OnceLock;

use axum::Json;
use axum::Router;
use axum::routing::get;
use serde_json::Value;
use utoipa::OpenApi;
use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};

use super::AppState;
use super::{
    accounts, affiliate, contact, content, exchange, markets, orders, partner_api, partners,
    site_config, status,
};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Ferry API",
        description = "The site API the Ferry web app uses (currencies, quotes, orders, accounts, content; errors answer `{code, msg, error, message}`) and the partner API under `/api/v2` (FixedFloat v2 compatible: `X-API-KEY`, `X-API-SIGN` = lowercase hex HMAC-SHA256 of the exact body bytes with the key's secret; every answer is `{code, msg, data}`, code 0 = success, 301 invalid request, 311 authentication failed, 312 permission denied, 320 order not found, 321 wrong order state, 429 rate limit, 500 internal error).",
        version = "1"
    ),
    paths(
        accounts::register,
        accounts::login,
        accounts::login_second_factor,
        accounts::logout,
        accounts::get_current_user,
        accounts::send_verification_email,
        accounts::verify_email,
        accounts::forgot_password,
        accounts::check_reset_link,
        accounts::reset_password,
        accounts::list_orders,
        accounts::redeem_social_sign_in,
        accounts::begin_social_sign_in,
        accounts::finish_social_sign_in,
        accounts::update_profile,
        accounts::delete_account,
        accounts::change_password,
        accounts::begin_two_factor,
        accounts::enable_two_factor,
        accounts::disable_two_factor,
        accounts::list_sessions,
        accounts::revoke_session,
        affiliate::record_affiliate_click,
        contact::send_contact_message,
        content::list_documents,
        content::get_document,
        content::search_help,
        exchange::list_available_currencies,
        exchange::get_exchange_rate,
        exchange::validate_address,
        markets::list_coins,
        orders::create_order,
        orders::get_order_details,
        orders::track_order,
        orders::choose_emergency,
        orders::set_refund_address,
        orders::simulate_own_deposit,
        orders::stream_order_events,
        orders::list_recent_transactions,
        orders::site_stats,
        orders::set_order_email,
        site_config::get_site_config,
        status::get_status,
        partners::list_api_keys,
        partners::create_api_key,
        partners::revoke_api_key,
        partners::set_webhook,
        partners::list_deliveries,
        partners::get_affiliate_summary,
        partners::request_payout,
        partner_api::ccies,
        partner_api::price,
        partner_api::create,
        partner_api::order,
        partner_api::emergency,
        partner_api::set_email,
        partner_api::qr,
    ),
    components(schemas(ErrorBody))
)]
struct ApiDoc;

/// What every error answers.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)]
struct ErrorBody {
    code: u16,
    msg: String,
    error: String,
    message: String,
}

/// Statuses any operation may answer with the error shape.
const ERRORS: [(&str, &str); 10] = [
    ("400", "Invalid request"),
    ("401", "Not signed in, or wrong credentials"),
    ("403", "Cross-site request refused"),
    ("404", "Not found"),
    ("409", "Conflict with the current state"),
    ("413", "Request body too large"),
    ("415", "The body is not JSON"),
    ("429", "Too many requests; see Retry-After"),
    ("500", "Internal error"),
    ("503", "A dependency (provider, database) is unavailable"),
];

/// What any partner-API method may answer besides its envelope with code 0 or a business
/// error code.
const PARTNER_ERRORS: [(&str, &str); 3] = [
    ("413", "Request body too large (code 301)"),
    (
        "429",
        "Rate limit of the key exceeded (code 429); see Retry-After",
    ),
    ("500", "Internal error (code 500)"),
];

pub fn document() -> &'static Value {
    static DOCUMENT: OnceLock<Value> = OnceLock::new();
    DOCUMENT.get_or_init(|| {
        let mut api = ApiDoc::openapi();
        let error = ContentBuilder::new()
            .schema(Some(Ref::from_schema_name("ErrorBody")))
            .build();
        let envelope = ContentBuilder::new()
            .schema(Some(Ref::from_schema_name("Envelope")))
            .build();
        for (path, item) in api.paths.paths.iter_mut() {
            // The partner API answers its own envelope (business errors are code ≠ 0 in a 200).
            let (errors, content) = if path.starts_with("/api/v2/") {
                (&PARTNER_ERRORS[..], &envelope)
            } else {
                (&ERRORS[..], &error)
            };
            for operation in [
                &mut item.get,
                &mut item.post,
                &mut item.put,
                &mut item.patch,
                &mut item.delete,
            ]
            .into_iter()
            .flatten()
            {
                for (status, description) in errors {
                    operation
                        .responses
                        .responses
                        .entry((*status).to_owned())
                        .or_insert_with(|| {
                            ResponseBuilder::new()
                                .description(*description)
                                .content("application/json", content.clone())
                                .build()
                                .into()
                        });
                }
            }
        }
        serde_json::to_value(&api).expect("the OpenAPI document serialises")
    })
}

pub fn router() -> Router<AppState> {
    Router::new().route(
        "/api/openapi.json",
        get(|| async { Json(document().clone()) }),
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_site_api_route_is_documented() {
        let doc = super::document();
        let paths = doc["paths"].as_object().expect("paths");
        for path in [
            "/api/register",
            "/api/login",
            "/api/two-factor/login",
            "/api/logout",
            "/api/user",
            "/api/email/verification/send",
            "/api/email/verification/verify",
            "/api/email/password/forgot",
            "/api/email/password/check",
            "/api/email/password/reset",
            "/api/orders",
            "/api/auth/exchange",
            "/api/auth/{provider}",
            "/api/auth/{provider}/callback",
            "/api/account",
            "/api/account/delete",
            "/api/account/password",
            "/api/account/2fa/setup",
            "/api/account/2fa/enable",
            "/api/account/2fa/disable",
            "/api/account/sessions",
            "/api/account/sessions/{id}",
            "/api/affiliate/click",
            "/api/contact",
            "/api/content/{collection}",
            "/api/content/{collection}/{slug}",
            "/api/help/search",
            "/api/available-currencies",
            "/api/exchange-rate",
            "/api/validate-address",
            "/api/coins",
            "/api/create-order",
            "/api/order-details/{id}",
            "/api/track-order",
            "/api/order-emergency",
            "/api/order-refund-address",
            "/api/orders/{id}/events",
            "/api/recent-transactions",
            "/api/site-stats",
            "/api/order-email",
            "/api/config",
            "/api/status",
            "/api/api-keys",
            "/api/api-keys/{id}",
            "/api/api-keys/{id}/webhook",
            "/api/api-keys/{id}/deliveries",
            "/api/affiliate",
            "/api/affiliate/payouts",
            "/api/v2/ccies",
            "/api/v2/price",
            "/api/v2/create",
            "/api/v2/order",
            "/api/v2/emergency",
            "/api/v2/setEmail",
            "/api/v2/qr",
        ] {
            assert!(paths.contains_key(path), "{path} is not documented");
        }
        assert_eq!(doc["openapi"], "3.1.0");
        let create = &doc["paths"]["/api/create-order"]["post"];
        assert!(create["requestBody"].is_object());
        assert!(create["responses"]["429"].is_object());
        let partner = &doc["paths"]["/api/v2/create"]["post"]["responses"];
        for status in ["200", "413", "429", "500"] {
            assert_eq!(
                partner[status]["content"]["application/json"]["schema"]["$ref"],
                "#/components/schemas/Envelope",
                "{status}"
            );
        }
        assert!(
            partner["400"].is_null(),
            "partner errors are envelopes, not HTTP 400"
        );
        assert!(doc["components"]["schemas"]["Envelope"].is_object());
        assert_eq!(
            partner["200"]["content"]["application/json"]["example"]["data"]["status"], "NEW",
            "the order object is documented by example"
        );
    }
}
