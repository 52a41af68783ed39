-- Rate files are kept gzipped (a tenth of their size): storing 5 MB of text copied it three
-- times on its way into the database at every refresh, and the server's memory jumped by ~40 MB.
-- The files are made again within one interval, so the old ones are not carried over.
DROP TABLE rate_files;
CREATE TABLE rate_files (
    kind         TEXT   NOT NULL PRIMARY KEY,
    slot         BIGINT NOT NULL,
    generated_at BIGINT NOT NULL,
    body_gzip    BYTEA  NOT NULL
);
