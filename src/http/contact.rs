//! `POST /api/contact` (spec/accounts-and-pages.md §7): the contact form.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use super::AppState;
use super::auth::MaybeUser;
use super::error::ApiError;
use super::extract::{ApiJson, ClientAddress};
use crate::services::contact::{ContactError, ContactForm};

pub fn router() -> Router<AppState> {
    Router::new().route("/api/contact", post(send_contact_message))
}

#[derive(Deserialize, utoipa::ToSchema)]
struct ContactRequest {
    #[serde(default)]
    name: String,
    #[serde(default)]
    email: String,
    #[serde(default)]
    subject: String,
    #[serde(default)]
    category: Option<String>,
    #[serde(default)]
    message: String,
    #[serde(default)]
    website: Option<String>,
}

#[utoipa::path(
    post,
    path = "/api/contact",
    tag = "site",
    summary = "Send the contact form",
    request_body = ContactRequest,
    responses((status = 201, description = "OK", body = serde_json::Value))
)]
async fn send_contact_message(
    State(state): State<AppState>,
    client: ClientAddress,
    MaybeUser(user): MaybeUser,
    ApiJson(body): ApiJson<ContactRequest>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    state
        .contact
        .submit(
            ContactForm {
                name: &body.name,
                email: &body.email,
                subject: &body.subject,
                category: body.category.as_deref(),
                message: &body.message,
                website: body.website.as_deref(),
            },
            &client.key().label(),
            user.as_ref().map(|u| u.user.id.as_str()),
            crate::now_unix(),
        )
        .await
        .map_err(|error| {
            let message = error.to_string();
            match error {
                ContactError::Invalid(_) => ApiError::BadRequest(message),
                ContactError::TooMany { retry_after, .. } => ApiError::TooManyRequests {
                    message,
                    retry_after,
                },
                ContactError::Store(e) => e.into(),
            }
        })?;
    Ok((
        StatusCode::CREATED,
        Json(json!({
            "message": "Thank you for your message! We'll get back to you as soon as possible."
        })),
    ))
}
