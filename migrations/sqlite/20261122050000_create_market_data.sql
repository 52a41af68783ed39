-- The last good market data of each source (spec/accounts-and-pages.md §2.3), so a restart or
-- an outage of the source never blanks the markets page.
CREATE TABLE market_data (
    source     TEXT   NOT NULL PRIMARY KEY,
    fetched_at BIGINT NOT NULL,
    body       TEXT   NOT NULL
);
