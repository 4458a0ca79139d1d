import MirrorStore

/// The mirror's tables in PostgreSQL, in a schema of their own (`fresh`, first on every
/// connection's search path), so they sit beside a team's other tables without a clash.
///
/// The migrations are named and append-only, as on the SQLite side (`MirrorSchema`): each runs
/// once, in a transaction, and is recorded in `fresh.migration`. Only one process migrates at
/// a time (an advisory lock), and a database that has every migration is not locked at all.
/// The one exception to append-only is a function's text: the writing functions are made from
/// ``PageWriteRule`` by v5 (`CREATE OR REPLACE`), so v2 and v4 no longer carry their own, and
/// made again by v10, whose catch-up and merge drop a page's validator, and by v12, whose pages
/// set items aside with the page they were on. A change to their text needs a migration that
/// makes them again.
enum PostgresSchema {
    static let name = "fresh"

    /// Every migration, oldest first; each a list of statements.
    static let migrations: [(name: String, statements: [String])] = [
        ("v1-collections-pages-items", collectionsPagesItems),
        ("v2-page-writer", []),  // its functions are v5's now
        ("v3-item-search", itemSearch),
        ("v4-moving-listings-and-incremental-syncs", movingListingsAndIncrementalSyncs),
        ("v5-page-write-rule", writingFunctions),
        ("v6-page-envelopes", pageEnvelopes),
        // As the SQLite side's `v9-search-state-by-sequence`: no count of the items before a search.
        ("v7-search-state-by-sequence", ["ALTER TABLE item_words_state DROP COLUMN item_count"]),
        // As the SQLite side's `v10-item-counts`: the count a pass's end kept, with the change number it holds for.
        ("v8-item-counts", ["""
            CREATE TABLE item_count (
                collection_id bigint PRIMARY KEY REFERENCES collection(id) ON DELETE CASCADE,
                count bigint NOT NULL,
                change_sequence bigint NOT NULL
            )
            """]),
        // Every pass rewrites each page's row (its pass, when fetched): with half of each table
        // block left free, the new row version fits beside the old one, and the server updates
        // it in place of the indexes (a HOT update), where a full block made it insert into both
        // indexes, the URL one included. A warm sync of 1,000 pages: its page updates took the
        // server 29 ms, now 19 ms (the statements' logged durations, mean of four runs each). Blocks
        // filled from now on keep the room; a database's existing blocks stay as full as they are.
        ("v9-page-room-for-updates", ["ALTER TABLE page SET (fillfactor = 50)"]),
        // As the SQLite side's `v11-validators-follow-moves`, with the catch-up and the merge that
        // now drop a page's validator (the writing functions again).
        ("v10-validators-follow-moves", validatorsFollowMoves + writingFunctions),
        // As the SQLite side's `v12-incremental-start`.
        ("v11-incremental-start", ["ALTER TABLE collection ADD COLUMN incremental_from text"]),
        // A set-aside item keeps the page it was on, the order in which a pass that stops puts
        // it back (`PageWriteRule.setAside`): the writing functions again.
        ("v12-set-aside-keeps-its-page", writingFunctions),
    ]

    /// ``PageWriteRule/pageNoLongerAsWritten`` for the page an item left, kept by a trigger (the
    /// server runs its condition for each updated row, and the function only for a move, with
    /// this schema's tables whatever the session's search path), and the pages written before it
    /// checked once.
    private static let validatorsFollowMoves = [
        """
        CREATE FUNCTION item_left_page() RETURNS trigger LANGUAGE plpgsql SET search_path = \(name) AS $$
        BEGIN
            \(plpgsql(PageWriteRule.pageNoLongerAsWritten, ["collection": "OLD.collection_id", "page": "OLD.page_index"]));
            RETURN NULL;
        END
        $$
        """,
        """
        CREATE TRIGGER item_left_page AFTER UPDATE OF page_index ON item FOR EACH ROW
        WHEN (\(PageWriteRule.itemLeftPage(old: "OLD.page_index", new: "NEW.page_index"))) EXECUTE FUNCTION item_left_page()
        """,
        PageWriteRule.pagesNotHoldingWhatTheyWrote,
    ]

    /// What a replay serves around a page's items (`PageEnvelope`), and pages found by URL, as
    /// the SQLite side's `v8-page-envelopes`.
    private static let pageEnvelopes = [
        """
        CREATE TABLE page_envelope (
            collection_id bigint NOT NULL,
            page_index bigint NOT NULL,
            envelope text NOT NULL,
            PRIMARY KEY (collection_id, page_index),
            FOREIGN KEY (collection_id, page_index) REFERENCES page(collection_id, page_index) ON DELETE CASCADE
        )
        """,
        "CREATE INDEX page_by_url ON page (url)",
    ]

    /// Collections of any JSON API, each with its pages and items, as in the SQLite mirror:
    /// - `item.key` is the key as the sync made it, tagged (`i` + digits for a number, `s` +
    ///   UTF-8 for a string), so `1` and `"1"` stay different keys and any byte survives;
    /// - `item.json` is the item as JSONB; `exact_text` keeps the text the server sent only
    ///   when JSONB cannot hold it (a `\u0000` in a string), and `json` then has U+FFFD there;
    /// - `item.collection_id` has no foreign key: the server would check it once per item written,
    ///   a third of `write_page`'s work (docs/scaling.md). Items are written only by `write_page`, for
    ///   a collection the sync holds, and ``PostgresMirror/deleteCollection(_:)`` deletes them.
    private static let collectionsPagesItems = [
        """
        CREATE TABLE collection (
            id bigserial PRIMARY KEY,
            name text NOT NULL UNIQUE,
            url text NOT NULL,
            plan text,
            headers text,
            created_at double precision NOT NULL,
            pass bigint NOT NULL DEFAULT 0,
            pass_complete boolean NOT NULL DEFAULT true,
            pass_started_at double precision,
            last_complete_at double precision,
            last_sync_at double precision,
            last_error text,
            change_sequence bigint NOT NULL DEFAULT 0,
            shown_sequence bigint
        )
        """,
        """
        CREATE TABLE page (
            collection_id bigint NOT NULL REFERENCES collection(id) ON DELETE CASCADE,
            page_index bigint NOT NULL,
            url text NOT NULL,
            next_url text,
            item_count bigint NOT NULL,
            validator text,
            pass bigint NOT NULL,
            content_pass bigint NOT NULL,
            fetched_at double precision NOT NULL,
            stated_total bigint,
            PRIMARY KEY (collection_id, page_index)
        )
        """,
        """
        CREATE TABLE item (
            id bigserial PRIMARY KEY,
            collection_id bigint NOT NULL,
            key bytea NOT NULL,
            page_index bigint NOT NULL,
            position bigint NOT NULL,
            json jsonb NOT NULL,
            exact_text text,
            pass bigint NOT NULL,
            created_sequence bigint NOT NULL,
            changed_sequence bigint NOT NULL,
            UNIQUE (collection_id, key)
        )
        """,
        "CREATE INDEX item_order ON item (collection_id, page_index, position)",
    ]

    /// The words of every string value of an item, for `/` in the reader, brought up to date by
    /// whoever searches (`PostgresMirror.updateSearchIndex`), not by the sync, as SQLite's `itemText`.
    private static let itemSearch = [
        """
        CREATE TABLE item_words (
            item_id bigint PRIMARY KEY REFERENCES item(id) ON DELETE CASCADE,
            collection_id bigint NOT NULL REFERENCES collection(id) ON DELETE CASCADE,
            words tsvector NOT NULL
        )
        """,
        "CREATE INDEX item_words_search ON item_words USING gin (words)",
        "CREATE INDEX item_words_collection ON item_words (collection_id)",
        """
        CREATE TABLE item_words_state (
            collection_id bigint PRIMARY KEY REFERENCES collection(id) ON DELETE CASCADE,
            sequence bigint NOT NULL,
            item_count bigint NOT NULL
        )
        """,
    ]

    /// Moving listings and incremental syncs, as the SQLite side's `v7-incremental-syncs`: the
    /// collection keeps its `since` and the kind of its last run (its functions are v5's now).
    private static let movingListingsAndIncrementalSyncs = [
        "ALTER TABLE collection ADD COLUMN since text",
        "ALTER TABLE collection ADD COLUMN last_pass_kind text",
        """
        DROP FUNCTION IF EXISTS write_pages(bigint, bigint, double precision, bigint[], text[], text[], text[], bigint[], bigint[], bytea[], text[], text[])
        """,
        "DROP FUNCTION IF EXISTS write_page(bigint, bigint, text, text, text, bigint, double precision, bigint, bytea[], text[], text[])",
    ]

    /// The writing functions, made from ``PageWriteRule`` (written once for both stores):
    /// - `write_page`: one changed page, inside the caller's transaction. A repeat comes back as
    ///   `refused_key` (the caller rolls back), or is left where it is if the listing may move.
    /// - `write_pages`: a batch of pages in one call, in order, so a batch costs one round trip
    ///   instead of one per page (docs/scaling.md). A current page (item count `NULL`) only has its
    ///   pass recorded, a run of them in one statement; a changed one is written by `write_page`,
    ///   its items the next `item_count` of the item arrays. One row per page, none after a refusal.
    /// - `write_caught_up`: the items a catch-up found, on the first page before its own.
    /// - `merge_items`: an incremental run's items, updated where they stand, new ones after the last.
    private static let writingFunctions = [
        """
        CREATE OR REPLACE FUNCTION write_page(
            p_collection bigint, p_page bigint, p_url text, p_next_url text, p_validator text, p_pass bigint,
            p_now double precision, p_stated_total bigint, p_repeats_allowed boolean, p_keys bytea[], p_documents text[],
            p_exact_texts text[], OUT created bigint, OUT changed bigint, OUT repeated bigint, OUT refused_key bytea,
            OUT refused_page bigint)
        LANGUAGE plpgsql AS $$
        DECLARE
            sequence bigint;
            written bigint;
        BEGIN
            \(plpgsql(PageWriteRule.nextChangeNumber)) INTO sequence;
            \(upsertCounting(onPage: "p_page", from: "0", pass: "p_pass", moving: .page))
            repeated := coalesce(array_length(p_keys, 1), 0) - written;
            IF repeated > 0 AND NOT p_repeats_allowed THEN
                SELECT i.key, i.page_index INTO refused_key, refused_page FROM item i
                WHERE i.collection_id = p_collection AND i.key = ANY (p_keys) AND i.page_index != p_page
                ORDER BY array_position(p_keys, i.key) LIMIT 1;
                RETURN;
            END IF;
            \(plpgsql(PageWriteRule.setAside));
            \(plpgsql(PageWriteRule.recordPage, ["item_count": "written", "validator": "CASE WHEN repeated > 0 THEN NULL ELSE p_validator END"]));
            PERFORM pg_notify('fresh_changes', p_collection::text);
        END
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION write_pages(
            p_collection bigint, p_pass bigint, p_now double precision,
            p_pages bigint[], p_urls text[], p_next_urls text[], p_validators text[], p_stated_totals bigint[], p_item_counts bigint[],
            p_repeats_allowed boolean[], p_keys bytea[], p_documents text[], p_exact_texts text[])
        RETURNS TABLE (created bigint, changed bigint, repeated bigint, refused_key bytea, refused_page bigint)
        LANGUAGE plpgsql AS $$
        DECLARE
            current_pages bigint[] := '{}';
            first_item bigint := 1;
            last_item bigint;
            page_count int := coalesce(array_length(p_pages, 1), 0);
        BEGIN
            -- One step past the last page, to record the current pages that end the batch.
            FOR nth IN 1 .. page_count + 1 LOOP
                IF nth <= page_count AND p_item_counts[nth] IS NULL THEN
                    current_pages := current_pages || p_pages[nth];
                    created := 0; changed := 0; repeated := 0; refused_key := NULL; refused_page := NULL;
                    RETURN NEXT;
                    CONTINUE;
                END IF;
                IF cardinality(current_pages) > 0 THEN
                    UPDATE page SET pass = p_pass, fetched_at = p_now WHERE collection_id = p_collection AND page_index = ANY (current_pages);
                    current_pages := '{}';
                END IF;
                EXIT WHEN nth > page_count;
                last_item := first_item + p_item_counts[nth] - 1;
                SELECT w.created, w.changed, w.repeated, w.refused_key, w.refused_page
                    INTO created, changed, repeated, refused_key, refused_page
                FROM write_page(p_collection, p_pages[nth], p_urls[nth], p_next_urls[nth], p_validators[nth], p_pass, p_now,
                    p_stated_totals[nth], p_repeats_allowed[nth], p_keys[first_item:last_item], p_documents[first_item:last_item],
                    p_exact_texts[first_item:last_item]) AS w;
                RETURN NEXT;
                IF refused_key IS NOT NULL THEN RETURN; END IF;
                first_item := last_item + 1;
            END LOOP;
        END
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION write_caught_up(
            p_collection bigint, p_pass bigint, p_first_position bigint, p_keys bytea[], p_documents text[], p_exact_texts text[],
            OUT created bigint, OUT changed bigint, OUT repeated bigint)
        LANGUAGE plpgsql AS $$
        DECLARE
            sequence bigint;
            written bigint;
        BEGIN
            \(plpgsql(PageWriteRule.nextChangeNumber)) INTO sequence;
            \(upsertCounting(onPage: "0", from: "p_first_position", pass: "p_pass", moving: .caughtUp))
            repeated := coalesce(array_length(p_keys, 1), 0) - written;
            IF written > 0 THEN \(plpgsql(PageWriteRule.pageNoLongerAsWritten, ["page": "0"])); END IF;
            PERFORM pg_notify('fresh_changes', p_collection::text);
        END
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION merge_items(
            p_collection bigint, p_keys bytea[], p_documents text[], p_exact_texts text[], OUT created bigint, OUT changed bigint)
        LANGUAGE plpgsql AS $$
        DECLARE
            sequence bigint;
            written bigint;
            current_pass bigint;
            last_page bigint;
            next_position bigint;
        BEGIN
            \(plpgsql(PageWriteRule.nextChangeNumber)) INTO sequence;
            SELECT pass INTO current_pass FROM collection WHERE id = p_collection;
            SELECT page_index, position + 1 INTO last_page, next_position FROM item
            WHERE collection_id = p_collection AND page_index >= 0 ORDER BY page_index DESC, position DESC LIMIT 1;
            \(upsertCounting(onPage: "coalesce(last_page, 0)", from: "coalesce(next_position, 0)", pass: "current_pass", moving: .never))
            IF created > 0 THEN \(plpgsql(PageWriteRule.pageNoLongerAsWritten, ["page": "coalesce(last_page, 0)"])); END IF;
            PERFORM pg_notify('fresh_changes', p_collection::text);
        END
        $$
        """,
    ]

    /// Step 2 of ``PageWriteRule`` from the function's item arrays, at positions from `from`;
    /// counts what it created, changed and wrote into `created`, `changed` and `written`.
    private static func upsertCounting(onPage page: String, from firstPosition: String, pass: String,
                                       moving: PageWriteRule.Moving) -> String {
        let rows = "SELECT p_collection, key, \(page), position, json, exact_text, \(pass), sequence, sequence FROM incoming"
        return """
            WITH incoming AS (
                SELECT key, document::jsonb AS json, NULLIF(exact, '') AS exact_text, \(firstPosition) + (place - 1) AS position
                FROM unnest(p_keys, p_documents, p_exact_texts) WITH ORDINALITY AS u(key, document, exact, place)
            ), upserted AS (
                \(PageWriteRule.upsertItems(rows, moving: moving, contentColumns: ["json", "exact_text"]))
                RETURNING item.created_sequence = sequence AS is_new, item.changed_sequence = sequence AS is_changed
            )
            SELECT count(*) FILTER (WHERE is_new), count(*) FILTER (WHERE is_changed AND NOT is_new), count(*)
                INTO created, changed, written FROM upserted;
            """
    }

    /// A statement of ``PageWriteRule`` inside a function: its `:name` is the function's
    /// parameter `p_name`, unless `values` gives another expression for it.
    private static func plpgsql(_ statement: String, _ values: [String: String] = [:]) -> String {
        statement.replacing(/:([a-z_]+)/) { match in values[String(match.output.1)] ?? "p_\(match.output.1)" }
    }

    /// Brings the database up to date: creates the schema and applies the migrations it lacks.
    /// - Throws: `StorageError` when the role may not create what is missing.
    static func migrate(_ connection: ServerConnection) async throws {
        if try await missing(connection).isEmpty { return }
        try await connection.query("SELECT pg_advisory_lock(\(migrationLock))")
        do {
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(name)"))
            try await connection.query(PostgresQuery(unsafeSQL: """
                CREATE TABLE IF NOT EXISTS \(name).migration (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
                """))
            for migration in try await missing(connection) {
                try await connection.transaction { transaction in
                    for statement in migration.statements { try await transaction.query(PostgresQuery(unsafeSQL: statement)) }
                    try await transaction.query("INSERT INTO migration (name) VALUES (\(migration.name))")
                }
            }
        } catch {
            _ = try? await connection.query("SELECT pg_advisory_unlock(\(migrationLock))")
            throw error
        }
        try await connection.query("SELECT pg_advisory_unlock(\(migrationLock))")
    }

    /// The migrations not applied yet (all of them in a database without the schema).
    private static func missing(_ connection: ServerConnection) async throws -> [(name: String, statements: [String])] {
        let exists = try await connection.query("SELECT to_regclass('\(unescaped: name).migration') IS NOT NULL")
        guard try exists.first?.decode(Bool.self) == true else { return migrations }
        let applied = Set(try await connection.query("SELECT name FROM migration").map { try $0.decode(String.self) })
        return migrations.filter { !applied.contains($0.name) }
    }

    /// The advisory lock a migrating process holds (an arbitrary number, Fresh's own).
    private static let migrationLock: Int64 = 0x6672_6573_686D_6967
}
