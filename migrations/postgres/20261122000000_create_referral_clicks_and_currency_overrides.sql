-- Affiliate clicks, one per referral code, visitor and UTC day (spec/accounts-and-pages.md §4.6).
CREATE TABLE referral_clicks (
    referral_code TEXT    NOT NULL,
    visitor_key   TEXT    NOT NULL,
    day           BIGINT  NOT NULL,
    source        TEXT    NOT NULL,
    created_at    BIGINT  NOT NULL,
    PRIMARY KEY (referral_code, visitor_key, day)
);
CREATE INDEX referral_clicks_by_code_and_time ON referral_clicks (referral_code, created_at);

-- The operator's overrides of the provider's send/receive flags (ferry admin currency …).
CREATE TABLE currency_overrides (
    code         TEXT   NOT NULL PRIMARY KEY,
    send_enabled BIGINT,
    recv_enabled BIGINT,
    updated_at   BIGINT NOT NULL
);
