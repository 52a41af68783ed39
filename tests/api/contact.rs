//! The contact form: validated, stored, forwarded through the outbox, throttled, and a
//! honeypot against bots (SQLite and PostgreSQL).

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{Db, json_of, spawn_app_with};
use crate::on_both_backends;

on_both_backends!(a_contact_message_is_stored_and_mailed_to_support);

async fn a_contact_message_is_stored_and_mailed_to_support(db: Db) {
    let Some(app) = spawn_app_with(db, |_| {}).await else {
        return;
    };
    let message = json!({
        "name": "Grace", "email": "grace@example.com", "subject": "Where is my refund?",
        "category": "billing", "message": "<b>Order</b> abc'; DROP TABLE orders; --",
    });
    let sent = app.post_json("/api/contact", &message).await;
    assert_eq!(sent.status(), StatusCode::CREATED);
    assert_eq!(
        json_of(sent).await["message"],
        "Thank you for your message! We'll get back to you as soon as possible."
    );
    let stored = app.store.contact_messages(10).await.unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!(
        stored[0].message,
        "<b>Order</b> abc'; DROP TABLE orders; --"
    );
    assert_eq!(stored[0].category, "billing");
    let mails = app.store.mail_to("support@ferry.local").await.unwrap();
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].subject, "[Contact/billing] Where is my refund?");
    assert!(mails[0].body.contains("From: Grace <grace@example.com>"));

    for (body, error) in [
        (
            json!({ "email": "g@example.com", "subject": "s", "message": "m" }),
            "Please enter your name",
        ),
        (
            json!({ "name": "G", "email": "nope", "subject": "s", "message": "m" }),
            "Please enter a valid email address",
        ),
        (
            json!({ "name": "G", "email": "g@example.com", "subject": "s", "message": "  " }),
            "Please enter your message",
        ),
        (
            json!({ "name": "G", "email": "g@example.com", "subject": "s", "message": "m", "category": "sales" }),
            "Choose one of the listed categories",
        ),
        (
            json!({ "name": "G", "email": "g@example.com", "subject": "s", "message": "m".repeat(5001) }),
            "The message is too long (5000 characters at most)",
        ),
    ] {
        let response = app.post_json("/api/contact", &body).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(json_of(response).await["message"], error);
    }

    // A bot filling the hidden field is answered the same and nothing is kept.
    let mut bot = message.clone();
    bot["website"] = json!("http://spam.example");
    assert_eq!(
        app.post_json("/api/contact", &bot).await.status(),
        StatusCode::CREATED
    );
    assert_eq!(app.store.contact_messages(10).await.unwrap().len(), 1);

    // Five messages an hour per client address.
    for _ in 0..3 {
        assert_eq!(
            app.post_json("/api/contact", &message).await.status(),
            StatusCode::CREATED
        );
    }
    let throttled = app.post_json("/api/contact", &message).await;
    assert_eq!(throttled.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(throttled.headers().contains_key("retry-after"));
}
