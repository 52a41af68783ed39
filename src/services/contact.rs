//! The contact form (spec/accounts-and-pages.md §2.14, §3, §4.4, §5): validated, stored, and
//! forwarded to the support address through the mail outbox; a few messages per client and
//! hour; a hidden field that people leave empty and bots fill in.

use crate::domain::account::{Email, Idn};
use crate::services::mail::Mailer;
use crate::services::throttle::{AllowanceError, take_hourly};
use crate::store::{ContactMessage, DynStore, MailRecord, StoreError};

pub const CATEGORIES: [&str; 5] = ["general", "technical", "account", "billing", "other"];
const NAME_MAX: usize = 100;
const SUBJECT_MAX: usize = 200;
const MESSAGE_MAX: usize = 5000;

pub struct ContactForm<'a> {
    pub name: &'a str,
    pub email: &'a str,
    pub subject: &'a str,
    pub category: Option<&'a str>,
    pub message: &'a str,
    /// The honeypot: hidden from people, so only a bot fills it in.
    pub website: Option<&'a str>,
}

#[derive(Debug, thiserror::Error)]
pub enum ContactError {
    #[error("{0}")]
    Invalid(&'static str),
    #[error("You have sent several messages already. Please try again in {minutes} minute(s).")]
    TooMany { minutes: i64, retry_after: i64 },
    #[error(transparent)]
    Store(#[from] StoreError),
}

pub struct Contact {
    store: DynStore,
    mailer: Mailer,
    support_email: String,
    site_name: String,
    /// Messages one client may send an hour (`FERRY_CONTACT_RATE_PER_HOUR`).
    per_hour: i64,
    email_idn: Idn,
}

fn required<'a>(
    value: &'a str,
    max: usize,
    missing: &'static str,
    long: &'static str,
) -> Result<&'a str, ContactError> {
    let value = value.trim();
    if value.is_empty() {
        return Err(ContactError::Invalid(missing));
    }
    if value.chars().count() > max {
        return Err(ContactError::Invalid(long));
    }
    Ok(value)
}

/// A field that ends up on one line of the support mail (the name, the subject): a line break
/// or another control character in it would forge the lines after it.
fn one_line<'a>(value: &'a str, broken: &'static str) -> Result<&'a str, ContactError> {
    if value.chars().any(char::is_control) {
        return Err(ContactError::Invalid(broken));
    }
    Ok(value)
}

impl Contact {
    pub fn new(
        store: DynStore,
        mailer: Mailer,
        support_email: &str,
        site_name: &str,
        per_hour: u32,
        email_idn: Idn,
    ) -> Contact {
        Contact {
            store,
            mailer,
            support_email: support_email.to_owned(),
            site_name: site_name.to_owned(),
            per_hour: i64::from(per_hour),
            email_idn,
        }
    }

    /// Stores the message and queues it for the support team. A bot's message (honeypot
    /// filled) is answered like any other and dropped.
    pub async fn submit(
        &self,
        form: ContactForm<'_>,
        client: &str,
        user_id: Option<&str>,
        now: i64,
    ) -> Result<(), ContactError> {
        let name = one_line(
            required(
                form.name,
                NAME_MAX,
                "Please enter your name",
                "The name is too long (100 characters at most)",
            )?,
            "The name cannot contain line breaks or control characters",
        )?;
        let email = Email::parse(form.email, self.email_idn)
            .map_err(|_| ContactError::Invalid("Please enter a valid email address"))?;
        let subject = one_line(
            required(
                form.subject,
                SUBJECT_MAX,
                "Please enter a subject",
                "The subject is too long (200 characters at most)",
            )?,
            "The subject cannot contain line breaks or control characters",
        )?;
        let message = required(
            form.message,
            MESSAGE_MAX,
            "Please enter your message",
            "The message is too long (5000 characters at most)",
        )?;
        // Lines and tabs, yes; other control characters (NUL, which PostgreSQL cannot store,
        // escapes) are no part of a message.
        if message
            .chars()
            .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
        {
            return Err(ContactError::Invalid(
                "The message cannot contain control characters",
            ));
        }
        let category = match form.category.map(str::trim).filter(|c| !c.is_empty()) {
            None => "general",
            Some(c) => CATEGORIES
                .into_iter()
                .find(|known| *known == c)
                .ok_or(ContactError::Invalid("Choose one of the listed categories"))?,
        };
        take_hourly(
            self.store.as_ref(),
            &format!("contact:{client}"),
            self.per_hour,
            now,
        )
        .await
        .map_err(|e| match e {
            AllowanceError::UsedUp(seconds) => ContactError::TooMany {
                minutes: (seconds.max(1) + 59) / 60,
                retry_after: seconds.max(1),
            },
            AllowanceError::Store(e) => ContactError::Store(e),
        })?;
        if form.website.is_some_and(|w| !w.trim().is_empty()) {
            tracing::info!("contact form: honeypot filled, message dropped");
            return Ok(());
        }
        let record = ContactMessage {
            id: uuid::Uuid::new_v4().to_string(),
            name: name.to_owned(),
            email: email.as_str().to_owned(),
            subject: subject.to_owned(),
            category: category.to_owned(),
            message: message.to_owned(),
            user_id: user_id.map(str::to_owned),
            created_at: now,
            order_id: None,
            answered_at: None,
            answered_by: None,
        };
        self.store.insert_contact_message(&record).await?;
        let body = format!(
            "A message from the {site} contact form.\n\nFrom: {name} <{email}>\nCategory: {category}\nSubject: {subject}\nAccount: {account}\nReference: {id}\n\n{message}\n",
            site = self.site_name,
            name = record.name,
            email = record.email,
            category = record.category,
            subject = record.subject,
            account = record.user_id.as_deref().unwrap_or("not signed in"),
            id = record.id,
            message = record.message,
        );
        // Support's answer goes to the sender (a header the mail library writes from these).
        let mail = MailRecord {
            reply_to_name: Some(record.name.clone()),
            reply_to_email: Some(record.email.clone()),
            ..self.mailer.record(
                &self.support_email,
                &format!("[Contact/{}] {}", record.category, record.subject),
                &body,
                now,
            )
        };
        self.store.enqueue_mail(&mail).await?;
        Ok(())
    }
}
