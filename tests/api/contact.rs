//! The contact form: validated, stored, forwarded through the outbox, throttled, and a
//! honeypot against bots (SQLite and PostgreSQL).

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{Db, json_of, spawn_app_with};
use crate::on_both_backends;
use crate::smtp_sink::SmtpSink;

on_both_backends!(
    a_contact_message_is_stored_and_mailed_to_support,
    a_name_or_subject_with_a_line_break_is_refused_and_mails_nothing,
    the_support_mail_replies_to_the_sender_and_no_header_can_be_forged,
);

const FORGED: &str = "\r\nBcc: evil@example.com";

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

async fn a_name_or_subject_with_a_line_break_is_refused_and_mails_nothing(db: Db) {
    let Some(app) = spawn_app_with(db, |_| {}).await else {
        return;
    };
    let name = format!("Eve{FORGED}");
    let subject = format!("Refund{FORGED}");
    for (body, error) in [
        (
            json!({ "name": name, "email": "eve@example.com", "subject": "Refund", "message": "m" }),
            "The name cannot contain line breaks or control characters",
        ),
        (
            json!({ "name": "Eve", "email": "eve@example.com", "subject": subject, "message": "m" }),
            "The subject cannot contain line breaks or control characters",
        ),
        (
            json!({ "name": "Eve\u{0}", "email": "eve@example.com", "subject": "Refund", "message": "m" }),
            "The name cannot contain line breaks or control characters",
        ),
        // A NUL in the message: PostgreSQL cannot store it, and a copy to it would fail.
        (
            json!({ "name": "Eve", "email": "eve@example.com", "subject": "Refund", "message": "a\u{0}b" }),
            "The message cannot contain control characters",
        ),
    ] {
        let response = app.post_json("/api/contact", &body).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(json_of(response).await["message"], error);
    }
    assert!(app.store.contact_messages(10).await.unwrap().is_empty());
    assert!(
        app.store
            .mail_to("support@ferry.local")
            .await
            .unwrap()
            .is_empty()
    );
}

/// The header section of a raw message, one line a field (folded lines joined).
fn header_lines(raw: &str) -> Vec<String> {
    let head = raw.split("\n\n").next().unwrap_or("");
    let mut fields: Vec<String> = Vec::new();
    for line in head.lines() {
        match fields.last_mut() {
            Some(field) if line.starts_with([' ', '\t']) => field.push_str(line),
            _ => fields.push(line.to_owned()),
        }
    }
    fields
}

/// Support can answer the sender (Reply-To), and what users write reaches the headers only
/// through the mail library's encoding: even a record that slipped a line break past the form
/// gets no header of its own and no extra recipient.
async fn the_support_mail_replies_to_the_sender_and_no_header_can_be_forged(db: Db) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let sink = SmtpSink::serve(listener);
    let Some(app) = spawn_app_with(db, |config| {
        config.smtp_url = Some(format!("smtp://127.0.0.1:{port}").into());
        config.worker_interval_ms = 100;
    })
    .await
    else {
        return;
    };
    let sent = app
        .post_json(
            "/api/contact",
            &json!({ "name": "Grace \"Ops\" O'Hara, Jr.", "email": "Grace@Example.com",
                     "subject": "Refund: order #42", "message": "Hello" }),
        )
        .await;
    assert_eq!(sent.status(), StatusCode::CREATED);
    let now = ferry::now_unix();
    app.store
        .enqueue_mail(&ferry::store::MailRecord {
            id: "forged".into(),
            recipient: "support@ferry.local".into(),
            subject: format!("Hi{FORGED}"),
            body: "b".into(),
            created_at: now,
            attempts: 0,
            next_attempt_at: now,
            sent_at: None,
            last_error: None,
            failed_at: None,
            reply_to_name: Some(format!("Eve{FORGED}")),
            reply_to_email: Some("eve@example.com".into()),
        })
        .await
        .unwrap();
    for _ in 0..300 {
        if sink.all().len() >= 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let received = sink.all();
    assert_eq!(received.len(), 2, "{received:?}");
    for raw in &received {
        let headers = header_lines(raw);
        assert!(
            !headers
                .iter()
                .any(|h| h.to_ascii_lowercase().starts_with("bcc:")),
            "{raw}"
        );
        assert!(!raw.lines().any(|l| l.starts_with("Bcc:")), "{raw}");
    }
    let replies: Vec<String> = received
        .iter()
        .flat_map(|raw| header_lines(raw))
        .filter(|h| h.starts_with("Reply-To:"))
        .collect();
    assert_eq!(replies.len(), 2, "{received:?}");
    // The name has quotes and a comma, so lettre writes it as an RFC 2047 encoded word.
    let name = data_encoding::BASE64.encode("Grace \"Ops\" O'Hara, Jr.".as_bytes());
    assert!(
        replies.contains(&format!("Reply-To: =?utf-8?b?{name}?= <grace@example.com>")),
        "{replies:?}"
    );
    assert_eq!(
        sink.envelope_recipients(),
        ["<support@ferry.local>", "<support@ferry.local>"]
    );
}
