-- Accounts (spec/accounts-and-pages.md §2.8–2.13, §3, §4.1): users, sessions, one-time tokens,
-- 2FA recovery codes, social identities, sign-in throttling and the mail outbox.
CREATE TABLE users (
    id                  TEXT    NOT NULL PRIMARY KEY,
    email               TEXT    NOT NULL UNIQUE,
    full_name           TEXT    NOT NULL,
    password_hash       TEXT,
    email_verified_at   BIGINT,
    referral_code       TEXT    NOT NULL UNIQUE,
    referred_by         TEXT,
    totp_secret         TEXT,
    totp_enabled        BIGINT  NOT NULL DEFAULT 0,
    totp_last_step      BIGINT,
    order_emails        BIGINT  NOT NULL DEFAULT 1,
    created_at          BIGINT  NOT NULL,
    updated_at          BIGINT  NOT NULL
);

-- Only a SHA-256 of each session token is stored; `id` names a session in the profile's list.
CREATE TABLE sessions (
    token_hash   TEXT    NOT NULL PRIMARY KEY,
    id           TEXT    NOT NULL UNIQUE,
    user_id      TEXT    NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   BIGINT  NOT NULL,
    expires_at   BIGINT  NOT NULL,
    last_seen_at BIGINT  NOT NULL,
    user_agent   TEXT    NOT NULL,
    ip           TEXT    NOT NULL
);
CREATE INDEX sessions_by_user ON sessions (user_id);

-- E-mail verification, password reset, 2FA sign-in challenges and social sign-in hand-offs:
-- random tokens stored as hashes, single use, expiring.
CREATE TABLE user_tokens (
    token_hash TEXT    NOT NULL PRIMARY KEY,
    user_id    TEXT    NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose    TEXT    NOT NULL,
    detail     TEXT,
    expires_at BIGINT  NOT NULL,
    used_at    BIGINT,
    created_at BIGINT  NOT NULL
);
CREATE INDEX user_tokens_by_user ON user_tokens (user_id, purpose);

CREATE TABLE recovery_codes (
    user_id   TEXT   NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash TEXT   NOT NULL,
    used_at   BIGINT,
    PRIMARY KEY (user_id, code_hash)
);

CREATE TABLE oauth_identities (
    provider   TEXT   NOT NULL,
    subject    TEXT   NOT NULL,
    user_id    TEXT   NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (provider, subject)
);

-- An OAuth authorization in flight: the state and its PKCE verifier.
CREATE TABLE oauth_states (
    state      TEXT   NOT NULL PRIMARY KEY,
    provider   TEXT   NOT NULL,
    verifier   TEXT   NOT NULL,
    expires_at BIGINT NOT NULL
);

-- Failure counters for sign-in and 2FA, per account and per client address.
CREATE TABLE throttles (
    key       TEXT   NOT NULL PRIMARY KEY,
    failures  BIGINT NOT NULL,
    window_ends_at BIGINT NOT NULL
);

-- Every mail is written here first and sent by the outbox worker, with retries.
CREATE TABLE mail_outbox (
    id              TEXT    NOT NULL PRIMARY KEY,
    recipient       TEXT    NOT NULL,
    subject         TEXT    NOT NULL,
    body            TEXT    NOT NULL,
    created_at      BIGINT  NOT NULL,
    attempts        BIGINT  NOT NULL DEFAULT 0,
    next_attempt_at BIGINT  NOT NULL,
    sent_at         BIGINT,
    last_error      TEXT,
    lease_owner     TEXT,
    lease_until     BIGINT
);
CREATE INDEX mail_outbox_due ON mail_outbox (sent_at, next_attempt_at);
