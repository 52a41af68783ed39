-- The rate files monitors download (/rates/float.xml, /rates/fixed.xml), as the cluster made them:
-- the first replica to make a file for an interval (`slot`) stores it and every replica serves
-- the stored one, so all answer the same bytes with the same ETag.
CREATE TABLE rate_files (
    kind         TEXT   NOT NULL PRIMARY KEY,
    slot         BIGINT NOT NULL,
    generated_at BIGINT NOT NULL,
    body         TEXT   NOT NULL
);
