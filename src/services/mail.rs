//! Mail: every message is written to the outbox table first and delivered by a worker, with
//! retries that back off, so an SMTP outage delays mail and never loses it. A mail the server
//! refuses for good (a 5xx reply) is marked failed rather than retried forever.
//!
//! Delivery goes over SMTP when `FERRY_SMTP_URL` is set, else to `.eml` files in
//! `DATA_DIR/outbox/` so that a fresh `make run` works offline.

use std::path::PathBuf;
use std::time::Duration;

use lettre::message::{Mailbox, header::ContentType};
use lettre::transport::smtp::response::Category;
use lettre::{
    Address, AsyncFileTransport, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor,
};

use crate::store::{DynStore, MailRecord, StoreError};

/// Longest wait between two delivery attempts of one mail.
const MAX_RETRY_SECONDS: i64 = 3600;
/// How long a worker holds a mail it is sending.
const LEASE_SECONDS: i64 = 120;
const SMTP_TIMEOUT: Duration = Duration::from_secs(15);

/// Why a mail did not go out, and whether trying again can help.
#[derive(Debug, PartialEq, Eq)]
enum Undelivered {
    /// The server was unreachable or busy, or answered 4xx: tried again after the backoff.
    Transient(String),
    /// The server refused this mail for good (5xx), or it cannot be written at all: sending it
    /// again would get the same answer.
    Refused(String),
}

#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error("invalid SMTP URL: {0}")]
    Url(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Where mail goes.
#[derive(Clone)]
enum Transport {
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
    Files(PathBuf),
}

/// The outbox: queue mail now, deliver it from the worker.
#[derive(Clone)]
pub struct Mailer {
    store: DynStore,
    from: Mailbox,
    transport: Transport,
    retry_seconds: i64,
}

impl Mailer {
    /// `smtp_url` as in `FERRY_SMTP_URL` (`?tls=starttls` is accepted for STARTTLS); `None`
    /// writes files to `outbox_dir`.
    pub fn new(
        store: DynStore,
        from: Mailbox,
        smtp_url: Option<&str>,
        outbox_dir: PathBuf,
        retry_seconds: u32,
    ) -> Result<Mailer, MailError> {
        let transport = match smtp_url {
            Some(url) => {
                let url = url.replace("tls=starttls", "tls=required");
                let builder = AsyncSmtpTransport::<Tokio1Executor>::from_url(&url)
                    // lettre's message could echo the URL with its password; say only what.
                    .map_err(|_| MailError::Url("check the scheme, host and port".into()))?;
                Transport::Smtp(builder.timeout(Some(SMTP_TIMEOUT)).build())
            }
            None => Transport::Files(outbox_dir),
        };
        Ok(Mailer {
            store,
            from,
            transport,
            retry_seconds: i64::from(retry_seconds),
        })
    }

    /// Queues a plain-text mail. It is in the database when this returns.
    pub async fn enqueue(
        &self,
        recipient: &str,
        subject: &str,
        body: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        self.store
            .enqueue_mail(&self.record(recipient, subject, body, now))
            .await
    }

    /// A plain-text mail for the outbox, to be stored with the change it reports.
    pub fn record(&self, recipient: &str, subject: &str, body: &str, now: i64) -> MailRecord {
        MailRecord {
            id: uuid::Uuid::new_v4().to_string(),
            recipient: recipient.to_owned(),
            subject: subject.to_owned(),
            body: body.to_owned(),
            created_at: now,
            attempts: 0,
            next_attempt_at: now,
            sent_at: None,
            last_error: None,
            failed_at: None,
            reply_to_name: None,
            reply_to_email: None,
        }
    }

    /// Sends what is due; returns how many went out.
    pub async fn deliver_due(&self, owner: &str, now: i64) -> Result<usize, StoreError> {
        let due = self
            .store
            .lease_due_mail(now, owner, LEASE_SECONDS, 20)
            .await?;
        let mut sent = 0;
        for mail in due {
            match self.send(&mail).await {
                Ok(()) => {
                    self.store
                        .mark_mail_sent(&mail.id, crate::now_unix())
                        .await?;
                    sent += 1;
                }
                Err(Undelivered::Transient(error)) => {
                    let wait = self.backoff(mail.attempts);
                    tracing::warn!(mail.id = %mail.id, attempts = mail.attempts + 1, retry_in = wait, error = %error, "mail not delivered; will retry");
                    self.store
                        .mark_mail_for_retry(&mail.id, &error, crate::now_unix() + wait)
                        .await?;
                }
                Err(Undelivered::Refused(error)) => {
                    tracing::error!(mail.id = %mail.id, error = %error, "mail refused for good; not retried");
                    self.store
                        .mark_mail_refused(&mail.id, &error, crate::now_unix())
                        .await?;
                }
            }
        }
        Ok(sent)
    }

    /// Seconds before the next attempt after `attempts` failed ones: doubling, capped.
    fn backoff(&self, attempts: i64) -> i64 {
        let factor = 1_i64 << attempts.clamp(0, 20);
        self.retry_seconds
            .saturating_mul(factor)
            .min(MAX_RETRY_SECONDS)
    }

    async fn send(&self, mail: &MailRecord) -> Result<(), Undelivered> {
        let to = smtp_mailbox(None, &mail.recipient)
            .map_err(|e| Undelivered::Refused(format!("bad recipient: {e}")))?;
        // Every header is the mail library's typed one: it encodes what a user wrote (a
        // subject, a name), so no line break in it can start a header of its own.
        let mut message = Message::builder().from(self.from.clone()).to(to);
        if let Some(email) = &mail.reply_to_email {
            let reply_to = smtp_mailbox(mail.reply_to_name.clone(), email)
                .map_err(|e| Undelivered::Refused(format!("bad reply-to address: {e}")))?;
            message = message.reply_to(reply_to);
        }
        let message = message
            .subject(mail.subject.as_str())
            .header(ContentType::TEXT_PLAIN)
            .body(mail.body.clone())
            .map_err(|e| Undelivered::Refused(format!("cannot build the message: {e}")))?;
        match &self.transport {
            Transport::Smtp(smtp) => smtp.send(message).await.map(drop).map_err(|e| {
                let permanent = e.status().filter(|_| e.is_permanent());
                judge_smtp_reply(permanent.map(|code| code.category), e.to_string())
            }),
            Transport::Files(dir) => {
                tokio::fs::create_dir_all(dir).await.map_err(|e| {
                    Undelivered::Transient(format!("cannot create {}: {e}", dir.display()))
                })?;
                AsyncFileTransport::<Tokio1Executor>::new(dir)
                    .send(message)
                    .await
                    .map(drop)
                    .map_err(|e| Undelivered::Transient(e.to_string()))
            }
        }
    }
}

/// A failed SMTP exchange, by the category of its permanent (5xx) reply if it had one. Any
/// 5xx refuses the mail for good except 53x: authentication is the operator's to fix, and a
/// wrong password must not cost every queued mail. Everything else (4xx, no connection, a
/// timeout) is worth another try.
fn judge_smtp_reply(permanent: Option<Category>, error: String) -> Undelivered {
    match permanent {
        Some(category) if category != Category::Unspecified3 => Undelivered::Refused(error),
        _ => Undelivered::Transient(error),
    }
}

/// An address as SMTP servers take it: an internationalised domain (`FERRY_MAIL_ALLOW_IDN`)
/// in its ASCII form, so that only a non-ASCII local part needs the server's SMTPUTF8.
fn smtp_mailbox(name: Option<String>, address: &str) -> Result<Mailbox, String> {
    let (local, domain) = address
        .rsplit_once('@')
        .ok_or_else(|| "no @ in the address".to_owned())?;
    let domain = idna::domain_to_ascii(domain).map_err(|e| e.to_string())?;
    let address = Address::new(local, domain).map_err(|e| e.to_string())?;
    // lettre encodes a display name but panics on a line break in it: control characters
    // become spaces first (the forms refuse them; this guards any other way in).
    let name = name.map(|name| name.replace(|c: char| c.is_control(), " "));
    Ok(Mailbox::new(name, address))
}

pub mod templates {
    //! The mails' texts, in each user's language (`mail_texts/{code}.json`; English is the
    //! source and the fallback).

    use std::collections::HashMap;
    use std::sync::OnceLock;

    use serde_json::Value;

    use crate::domain::language::Language;

    pub struct Composed {
        pub subject: String,
        pub body: String,
    }

    /// Why someone receives an order's status mails.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Reason {
        /// The order's owner, whose profile asks for them.
        Profile,
        /// The address given for this order (the partner API's `setEmail`).
        Order,
    }

    /// The order changes worth a mail.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum StatusMail {
        Confirming,
        Emergency,
        Completed,
        Refunded,
        Failed,
    }

    impl StatusMail {
        fn key(self) -> &'static str {
            match self {
                StatusMail::Confirming => "confirming",
                StatusMail::Emergency => "emergency",
                StatusMail::Completed => "completed",
                StatusMail::Refunded => "refunded",
                StatusMail::Failed => "failed",
            }
        }
    }

    pub(super) const SOURCES: [(&str, &str); 14] = [
        ("en", include_str!("mail_texts/en.json")),
        ("es", include_str!("mail_texts/es.json")),
        ("de", include_str!("mail_texts/de.json")),
        ("fr", include_str!("mail_texts/fr.json")),
        ("pt", include_str!("mail_texts/pt.json")),
        ("ru", include_str!("mail_texts/ru.json")),
        ("pl", include_str!("mail_texts/pl.json")),
        ("nl", include_str!("mail_texts/nl.json")),
        ("uk", include_str!("mail_texts/uk.json")),
        ("tr", include_str!("mail_texts/tr.json")),
        ("it", include_str!("mail_texts/it.json")),
        ("zh", include_str!("mail_texts/zh.json")),
        ("ko", include_str!("mail_texts/ko.json")),
        ("ja", include_str!("mail_texts/ja.json")),
    ];

    fn all() -> &'static HashMap<&'static str, Value> {
        static ALL: OnceLock<HashMap<&'static str, Value>> = OnceLock::new();
        ALL.get_or_init(|| {
            SOURCES
                .iter()
                .filter_map(|(code, json)| Some((*code, serde_json::from_str(json).ok()?)))
                .collect()
        })
    }

    /// The text at `path` (`a.b`) in `language`, else in English.
    fn text(language: Language, path: &str) -> &'static str {
        let find = |code: &str| {
            path.split('.')
                .try_fold(all().get(code)?, |node, key| node.get(key))
                .and_then(Value::as_str)
        };
        find(language.code()).or_else(|| find("en")).unwrap_or("")
    }

    fn fill(template: &str, values: &[(&str, &str)]) -> String {
        values
            .iter()
            .fold(template.to_owned(), |text, (key, value)| {
                text.replace(&format!("{{{key}}}"), value)
            })
    }

    fn compose(
        language: Language,
        name: &str,
        values: &[(&str, &str)],
        extra: Option<&str>,
    ) -> Composed {
        let mut body = fill(text(language, &format!("{name}.body")), values);
        if let Some(extra) = extra {
            body.push_str("\n\n");
            body.push_str(extra);
        }
        body.push_str("\n\n");
        body.push_str(&fill(text(language, "signature"), values));
        body.push('\n');
        Composed {
            subject: fill(text(language, &format!("{name}.subject")), values),
            body,
        }
    }

    pub fn verify_email(language: Language, site: &str, link: &str) -> Composed {
        compose(language, "verify", &[("site", site), ("link", link)], None)
    }

    pub fn reset_password(language: Language, site: &str, link: &str) -> Composed {
        compose(language, "reset", &[("site", site), ("link", link)], None)
    }

    pub fn password_changed(language: Language, site: &str, support: &str) -> Composed {
        compose(
            language,
            "passwordChanged",
            &[("site", site), ("support", support)],
            None,
        )
    }

    /// An operator changed where the order's refund goes.
    pub fn refund_address_changed(
        language: Language,
        site: &str,
        order_id: &str,
        address: &str,
        link: &str,
        support: &str,
    ) -> Composed {
        compose(
            language,
            "refundAddressChanged",
            &[
                ("site", site),
                ("order_id", order_id),
                ("address", address),
                ("link", link),
                ("support", support),
            ],
            None,
        )
    }

    /// One of an order's transactions, as the status mail lists it.
    pub struct TransactionLine {
        pub side: TransactionSide,
        pub amount: String,
        pub coin: String,
        /// Where it went (the payout and refund addresses).
        pub address: Option<String>,
        pub id: String,
        pub explorer: Option<String>,
    }

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum TransactionSide {
        Deposit,
        Payout,
        Refund,
    }

    #[allow(clippy::too_many_arguments)]
    pub fn order_status(
        language: Language,
        site: &str,
        order_id: &str,
        status: StatusMail,
        link: &str,
        reason: Reason,
        transactions: &[TransactionLine],
    ) -> Composed {
        let status = text(language, &format!("statuses.{}", status.key()));
        let because = match reason {
            Reason::Profile => "orderStatus.becauseProfile",
            Reason::Order => "orderStatus.becauseOrder",
        };
        let mut extra = String::new();
        for tx in transactions {
            let key = match tx.side {
                TransactionSide::Deposit => "orderStatus.deposit",
                TransactionSide::Payout => "orderStatus.payout",
                TransactionSide::Refund => "orderStatus.refund",
            };
            let line = fill(
                text(language, key),
                &[
                    ("amount", &tx.amount),
                    ("coin", &tx.coin),
                    ("address", tx.address.as_deref().unwrap_or("")),
                    ("tx", &tx.id),
                ],
            );
            extra.push_str(&line);
            extra.push('\n');
            if let Some(explorer) = &tx.explorer {
                extra.push_str(explorer);
                extra.push('\n');
            }
        }
        extra.push_str(if extra.is_empty() { "" } else { "\n" });
        extra.push_str(text(language, because));
        compose(
            language,
            "orderStatus",
            &[
                ("site", site),
                ("order_id", order_id),
                ("status", status),
                ("link", link),
            ],
            Some(&extra),
        )
    }
}

#[cfg(test)]
mod tests {
    use lettre::transport::smtp::response::Category;

    use super::templates::{self, Reason, StatusMail};
    use super::{Undelivered, judge_smtp_reply, smtp_mailbox};
    use crate::domain::language::Language;

    #[test]
    fn a_5xx_refusal_is_final_but_authentication_and_transient_failures_are_retried() {
        let judged = |category| judge_smtp_reply(category, "e".into());
        for refusal in [
            Category::MailSystem,
            Category::Syntax,
            Category::Connections,
        ] {
            assert_eq!(judged(Some(refusal)), Undelivered::Refused("e".into()));
        }
        assert_eq!(
            judged(Some(Category::Unspecified3)),
            Undelivered::Transient("e".into())
        );
        assert_eq!(judged(None), Undelivered::Transient("e".into()));
    }

    #[test]
    fn a_display_name_with_a_line_break_becomes_one_line_instead_of_a_panic() {
        let mailbox = smtp_mailbox(
            Some("Eve\r\nBcc: evil@example.com".into()),
            "eve@example.com",
        )
        .expect("a mailbox");
        assert_eq!(mailbox.name.as_deref(), Some("Eve  Bcc: evil@example.com"));
        let message = lettre::Message::builder()
            .from("a@example.com".parse().unwrap())
            .to("b@example.com".parse().unwrap())
            .reply_to(mailbox)
            .subject("Hi\r\nBcc: evil@example.com")
            .body(String::from("b"))
            .expect("a message");
        let head = String::from_utf8(message.formatted()).unwrap();
        assert!(!head.lines().any(|l| l.starts_with("Bcc:")), "{head}");
    }

    #[test]
    fn internationalised_domains_are_sent_to_in_ascii() {
        let to = |raw: &str| smtp_mailbox(None, raw).map(|m| m.email.to_string());
        assert_eq!(to("ada@example.com"), Ok("ada@example.com".into()));
        assert_eq!(
            to("j\u{f6}rg@m\u{fc}nchen.de"),
            Ok("j\u{f6}rg@xn--mnchen-3ya.de".into())
        );
        assert!(to("nobody").is_err());
    }

    fn paths(value: &serde_json::Value, prefix: &str, out: &mut Vec<(String, String)>) {
        match value {
            serde_json::Value::Object(map) => {
                for (key, child) in map {
                    paths(child, &format!("{prefix}{key}."), out);
                }
            }
            serde_json::Value::String(text) => {
                out.push((prefix.trim_end_matches('.').to_owned(), text.clone()))
            }
            _ => panic!("{prefix} is neither text nor a group"),
        }
    }

    fn placeholders(text: &str) -> Vec<String> {
        let mut found: Vec<String> = text
            .split('{')
            .skip(1)
            .filter_map(|rest| rest.split_once('}').map(|(name, _)| name.to_owned()))
            .collect();
        found.sort();
        found
    }

    #[test]
    fn templates_carry_the_link_and_the_validity() {
        let mail =
            templates::reset_password(Language::En, "Ferry", "http://x/reset-password?token=t");
        assert!(mail.body.contains("http://x/reset-password?token=t"));
        assert!(mail.body.contains("1 hour"));
        assert!(mail.body.ends_with("— Ferry\n"));
        let mail = templates::verify_email(Language::En, "Ferry", "http://x/verify-email?token=t");
        assert!(mail.body.contains("24 hours"));
        assert_eq!(mail.subject, "Verify your email for Ferry");
    }

    #[test]
    fn order_mails_say_why_the_recipient_gets_them() {
        let owner = templates::order_status(
            Language::En,
            "Ferry",
            "ABC",
            StatusMail::Completed,
            "http://x/o",
            Reason::Profile,
            &[],
        );
        assert_eq!(owner.subject, "Order ABC: completed");
        assert!(
            owner
                .body
                .contains("order-status emails are on in your profile")
        );
        let given = templates::order_status(
            Language::En,
            "Ferry",
            "ABC",
            StatusMail::Refunded,
            "http://x/o",
            Reason::Order,
            &[templates::TransactionLine {
                side: templates::TransactionSide::Refund,
                amount: "0.0998".into(),
                coin: "BTC".into(),
                address: Some("bc1qrefund".into()),
                id: "ab12".into(),
                explorer: Some("https://mempool.space/tx/ab12".into()),
            }],
        );
        assert!(given.body.contains("this address was given for this order"));
        assert!(!given.body.contains("profile"));
        assert!(
            given
                .body
                .contains("Refund: 0.0998 BTC to bc1qrefund, transaction ab12\nhttps://mempool.space/tx/ab12\n"),
            "{}",
            given.body
        );
    }

    #[test]
    fn every_language_has_every_text_translated_with_the_same_placeholders() {
        let parse =
            |json: &str| serde_json::from_str::<serde_json::Value>(json).expect("valid JSON");
        let mut english = Vec::new();
        paths(&parse(templates::SOURCES[0].1), "", &mut english);
        for (code, json) in &templates::SOURCES[1..] {
            let mut texts = Vec::new();
            paths(&parse(json), "", &mut texts);
            let keys =
                |t: &[(String, String)]| t.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>();
            assert_eq!(
                keys(&texts),
                keys(&english),
                "{code}: the same texts as English"
            );
            for ((key, text), (_, source)) in texts.iter().zip(&english) {
                assert_eq!(placeholders(text), placeholders(source), "{code}: {key}");
                assert!(!text.trim().is_empty(), "{code}: {key} is empty");
            }
            let body = |t: &[(String, String)], k: &str| {
                t.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone())
            };
            for key in [
                "verify.body",
                "reset.body",
                "orderStatus.body",
                "statuses.completed",
            ] {
                assert_ne!(
                    body(&texts, key),
                    body(&english, key),
                    "{code}: {key} is not translated"
                );
            }
        }
    }

    #[test]
    fn a_german_user_gets_german_mail() {
        let mail = templates::verify_email(Language::De, "Ferry", "http://x/verify-email?token=t");
        assert_ne!(mail.subject, "Verify your email for Ferry");
        assert!(mail.body.contains("http://x/verify-email?token=t"));
    }
}
