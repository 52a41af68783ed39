//! Mail: every message is written to the outbox table first and delivered by a worker, with
//! retries that back off, so an SMTP outage delays mail and never loses it.
//!
//! Delivery goes over SMTP when `FERRY_SMTP_URL` is set, else to `.eml` files in
//! `DATA_DIR/outbox/` so that a fresh `make run` works offline.

use std::path::PathBuf;
use std::time::Duration;

use lettre::message::{Mailbox, header::ContentType};
use lettre::{AsyncFileTransport, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::store::{DynStore, MailRecord, StoreError};

/// Longest wait between two delivery attempts of one mail.
const MAX_RETRY_SECONDS: i64 = 3600;
/// How long a worker holds a mail it is sending.
const LEASE_SECONDS: i64 = 120;
const SMTP_TIMEOUT: Duration = Duration::from_secs(15);

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
            .enqueue_mail(&MailRecord {
                id: uuid::Uuid::new_v4().to_string(),
                recipient: recipient.to_owned(),
                subject: subject.to_owned(),
                body: body.to_owned(),
                created_at: now,
                attempts: 0,
                next_attempt_at: now,
                sent_at: None,
                last_error: None,
            })
            .await
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
                Err(error) => {
                    let wait = self.backoff(mail.attempts);
                    tracing::warn!(mail.id = %mail.id, attempts = mail.attempts + 1, retry_in = wait, error = %error, "mail not delivered; will retry");
                    self.store
                        .mark_mail_failed(&mail.id, &error, crate::now_unix() + wait)
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

    async fn send(&self, mail: &MailRecord) -> Result<(), String> {
        let to: Mailbox = mail
            .recipient
            .parse()
            .map_err(|e| format!("bad recipient: {e}"))?;
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(mail.subject.as_str())
            .header(ContentType::TEXT_PLAIN)
            .body(mail.body.clone())
            .map_err(|e| format!("cannot build the message: {e}"))?;
        match &self.transport {
            Transport::Smtp(smtp) => smtp
                .send(message)
                .await
                .map(drop)
                .map_err(|e| e.to_string()),
            Transport::Files(dir) => {
                tokio::fs::create_dir_all(dir)
                    .await
                    .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
                AsyncFileTransport::<Tokio1Executor>::new(dir)
                    .send(message)
                    .await
                    .map(drop)
                    .map_err(|e| e.to_string())
            }
        }
    }
}

/// The texts of Ferry's mails. English for now; the links carry the site's public URL.
pub mod templates {
    pub struct Composed {
        pub subject: String,
        pub body: String,
    }

    pub fn verify_email(site: &str, link: &str) -> Composed {
        Composed {
            subject: format!("Verify your email for {site}"),
            body: format!(
                "Welcome to {site}!\n\nPlease confirm your email address by opening this link \
                 (valid for 24 hours):\n\n{link}\n\nIf you did not create an account, you can \
                 ignore this message.\n\n— {site}\n"
            ),
        }
    }

    pub fn reset_password(site: &str, link: &str) -> Composed {
        Composed {
            subject: format!("Reset your {site} password"),
            body: format!(
                "Someone asked to reset the password of your {site} account.\n\nTo choose a new \
                 password, open this link (valid for 1 hour, usable once):\n\n{link}\n\nIf it \
                 was not you, ignore this message: your password stays as it is.\n\n— {site}\n"
            ),
        }
    }

    pub fn password_changed(site: &str, support: &str) -> Composed {
        Composed {
            subject: format!("Your {site} password was changed"),
            body: format!(
                "The password of your {site} account was just changed and your other sessions \
                 were signed out.\n\nIf this was not you, reset your password now and write to \
                 {support}.\n\n— {site}\n"
            ),
        }
    }

    pub fn order_status(site: &str, order_id: &str, status: &str, link: &str) -> Composed {
        Composed {
            subject: format!("Order {order_id}: {status}"),
            body: format!(
                "Your {site} order {order_id} is now {status}.\n\nFollow it here:\n\n{link}\n\n\
                 You receive these messages because order-status emails are on in your \
                 profile.\n\n— {site}\n"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn templates_carry_the_link_and_the_validity() {
        let mail = super::templates::reset_password("Ferry", "http://x/reset-password?token=t");
        assert!(mail.body.contains("http://x/reset-password?token=t"));
        assert!(mail.body.contains("1 hour"));
        let mail = super::templates::verify_email("Ferry", "http://x/verify-email?token=t");
        assert!(mail.body.contains("24 hours"));
    }
}
