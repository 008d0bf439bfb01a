-- tests/realworld/sqlite/queries.sql - SQL run by the sqlite3 shell built
-- with and without the plugin (tests/realworld/sqlite.sh); the output is
-- tests/realworld/sqlite/expected (with speedtest1's after it).
-- Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
.headers on
.mode list
.nullvalue NULL
SELECT sqlite_version() LIKE '3.%' AS version_ok;

CREATE TABLE customer (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT, since INTEGER);
CREATE TABLE product (id INTEGER PRIMARY KEY, title TEXT UNIQUE, price REAL CHECK (price > 0));
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer INTEGER REFERENCES customer(id),
                     product INTEGER REFERENCES product(id), qty INTEGER, day INTEGER);

BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
INSERT INTO customer SELECT i, 'cust' || printf('%04d', i),
       CASE i % 5 WHEN 0 THEN 'Oslo' WHEN 1 THEN 'Lima' WHEN 2 THEN 'Pune' WHEN 3 THEN 'Kyiv' ELSE NULL END,
       2000 + i % 25 FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
INSERT INTO product SELECT i, 'prod' || i, round(1 + (i * 37 % 500) / 7.0, 2) FROM n;
COMMIT;

BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50000)
INSERT INTO orders SELECT i, 1 + (i * 7919) % 2000, 1 + (i * 104729) % 300, 1 + i % 9, i % 365 FROM n;
COMMIT;

SELECT count(*) AS customers, count(city) AS with_city, count(DISTINCT city) AS cities FROM customer;
SELECT count(*) AS orders, sum(qty) AS items, min(day), max(day) FROM orders;

CREATE INDEX orders_customer ON orders(customer);
CREATE INDEX orders_product_day ON orders(product, day);
CREATE INDEX customer_city ON customer(city, since);

-- joins and aggregates
SELECT c.city, count(*) AS n, sum(o.qty) AS qty, printf('%.2f', sum(o.qty * p.price)) AS revenue
  FROM orders o JOIN customer c ON c.id = o.customer JOIN product p ON p.id = o.product
 GROUP BY c.city ORDER BY c.city NULLS FIRST;
SELECT p.title, sum(o.qty) AS sold FROM product p JOIN orders o ON o.product = p.id
 GROUP BY p.id ORDER BY sold DESC, p.title LIMIT 5;
SELECT c.name, count(o.id) AS n FROM customer c LEFT JOIN orders o ON o.customer = c.id
 WHERE c.id BETWEEN 10 AND 15 GROUP BY c.id ORDER BY c.id;
SELECT since, count(*) FROM customer GROUP BY since HAVING count(*) > 80 ORDER BY since;
SELECT count(*) AS big_orders FROM orders WHERE qty > 7 AND product IN (SELECT id FROM product WHERE price > 50);
SELECT total(price), avg(price), group_concat(id, ',') FROM (SELECT * FROM product ORDER BY id LIMIT 6);
SELECT count(*) FROM orders o WHERE EXISTS (SELECT 1 FROM customer c WHERE c.id = o.customer AND c.city = 'Lima');

-- window functions
SELECT day, daily, sum(daily) OVER (ORDER BY day ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS moving,
       rank() OVER (ORDER BY daily DESC) AS rnk
  FROM (SELECT day, sum(qty) AS daily FROM orders WHERE day < 8 GROUP BY day) ORDER BY day;
SELECT customer, id, row_number() OVER w AS rn, lag(qty) OVER w AS prev, first_value(qty) OVER w AS first
  FROM orders WHERE customer = 42 WINDOW w AS (PARTITION BY customer ORDER BY id) ORDER BY id LIMIT 6;
SELECT ntile(4) OVER (ORDER BY id) AS quartile, count(*) OVER () AS total, id FROM product WHERE id % 37 = 0;

-- recursive CTEs
WITH RECURSIVE fib(n, a, b) AS (SELECT 1, 0, 1 UNION ALL SELECT n + 1, b, a + b FROM fib WHERE n < 60)
SELECT n, a FROM fib WHERE n % 10 = 0;
CREATE TABLE tree (id INTEGER PRIMARY KEY, parent INTEGER, label TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
INSERT INTO tree SELECT i, CASE WHEN i = 1 THEN NULL ELSE i / 3 + (i % 3 > 0) END, 'node' || i FROM n;
WITH RECURSIVE sub(id, depth, path) AS (
  SELECT id, 0, label FROM tree WHERE parent IS NULL
  UNION ALL SELECT t.id, s.depth + 1, s.path || '/' || t.label FROM tree t JOIN sub s ON t.parent = s.id)
SELECT depth, count(*), max(path) FROM sub GROUP BY depth ORDER BY depth;
WITH RECURSIVE collatz(start, x, steps) AS (
  SELECT value, value, 0 FROM generate_series(1, 30)
  UNION ALL SELECT start, CASE WHEN x % 2 = 0 THEN x / 2 ELSE 3 * x + 1 END, steps + 1 FROM collatz WHERE x > 1)
SELECT start, max(steps) FROM collatz GROUP BY start ORDER BY max(steps) DESC, start LIMIT 3;

-- updates, deletes, upsert, triggers, views
CREATE TABLE audit (what TEXT, n INTEGER);
CREATE TRIGGER orders_del AFTER DELETE ON orders BEGIN
  INSERT INTO audit VALUES ('delete', old.id) ON CONFLICT DO NOTHING;
END;
BEGIN;
UPDATE product SET price = price * 1.1 WHERE id % 10 = 0;
DELETE FROM orders WHERE day = 364;
COMMIT;
SELECT what, count(*), min(n), max(n) FROM audit GROUP BY what;
SELECT printf('%.4f', sum(price)) FROM product;
CREATE TABLE kv (k TEXT PRIMARY KEY, v INTEGER) STRICT;
INSERT INTO kv VALUES ('a', 1), ('b', 2);
INSERT INTO kv VALUES ('a', 10), ('c', 3) ON CONFLICT (k) DO UPDATE SET v = v + excluded.v;
SELECT * FROM kv ORDER BY k;
CREATE VIEW city_totals AS SELECT c.city, sum(o.qty) AS qty FROM orders o JOIN customer c ON c.id = o.customer GROUP BY c.city;
SELECT * FROM city_totals WHERE city IS NOT NULL ORDER BY qty DESC;
CREATE TABLE gen (a INTEGER, b INTEGER GENERATED ALWAYS AS (a * a) STORED);
INSERT INTO gen (a) VALUES (3), (4);
SELECT a, b FROM gen;
SAVEPOINT sp; DELETE FROM customer; ROLLBACK TO sp; RELEASE sp;
SELECT count(*) FROM customer;

-- expressions and functions
SELECT abs(-5), round(2.5), round(-2.5), 7 / 2, 7 % 3, 7.0 / 2, cast('12abc' AS INTEGER), typeof(1.0), typeof(x'00');
SELECT upper('abc'), substr('hello', 2, 3), replace('aaa', 'a', 'bb'), instr('hello', 'll'), length('héllo'), hex('A');
SELECT trim('  x  '), ltrim('xxy', 'x'), printf('%5.2f|%-4s|%04d', 3.14159, 'ab', 42), quote('it''s'), unicode('€');
SELECT coalesce(NULL, NULL, 3), nullif(1, 1), iif(1 < 2, 'yes', 'no'), 'abc' LIKE 'A%', 'abc' GLOB 'a*', 'b' BETWEEN 'a' AND 'c';
SELECT date('2026-11-22', '+1 month'), strftime('%j', '2026-12-31'), julianday('2000-01-01'), datetime(0, 'unixepoch');
SELECT sqrt(2.0), pow(2, 10), floor(-1.5), ceil(-1.5), log10(1000), pi() > 3.14;
SELECT soundex('Robert'), char(72, 105), zeroblob(4) = x'00000000', likelihood(1, 0.5);

-- JSON
SELECT json_object('a', 1, 'b', json_array(1, 2, 3)), json_extract('{"x":{"y":[10,20]}}', '$.x.y[1]');
SELECT key, value FROM json_each('{"one":1,"two":[2],"three":"3"}') ORDER BY key;
SELECT json_group_array(id) FROM (SELECT id FROM product WHERE id <= 5);
SELECT json_set('{"a":1}', '$.b', 2), json_valid('{bad'), json_type('[1]');

-- full-text search (FTS5, bm25) and FTS4
CREATE VIRTUAL TABLE docs USING fts5(title, body);
INSERT INTO docs VALUES ('zlib', 'a compression library with deflate and inflate'),
                        ('lua', 'a small scripting language with coroutines and closures'),
                        ('sqlite', 'a small sql database engine in one file'),
                        ('perfpred', 'predicts how parallel programs scale from one small run');
SELECT title, printf('%.6f', bm25(docs)) FROM docs WHERE docs MATCH 'small OR language OR compression' ORDER BY bm25(docs), title;
SELECT title, printf('%.6f', bm25(docs, 10.0, 1.0)) FROM docs WHERE docs MATCH 'a' ORDER BY title;
SELECT title, highlight(docs, 1, '[', ']') FROM docs WHERE docs MATCH 'sql OR coroutines' ORDER BY title;
SELECT title, snippet(docs, 1, '<', '>', '...', 4) FROM docs WHERE docs MATCH 'parallel' ;
CREATE VIRTUAL TABLE notes USING fts4(content);
INSERT INTO notes VALUES ('the quick brown fox'), ('jumps over the lazy dog'), ('the end');
SELECT rowid, content FROM notes WHERE notes MATCH 'the' ORDER BY rowid;

-- R*Tree
CREATE VIRTUAL TABLE boxes USING rtree(id, x0, x1, y0, y1);
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 999)
INSERT INTO boxes SELECT i, i % 40, i % 40 + 2, i / 40, i / 40 + 3 FROM n;
SELECT count(*) FROM boxes WHERE x0 <= 10 AND x1 >= 10 AND y0 <= 5 AND y1 >= 5;

-- the query planner's choices and the integrity of the file
EXPLAIN QUERY PLAN SELECT * FROM orders WHERE customer = 5 AND day > 3;
SELECT count(*) FROM orders INDEXED BY orders_product_day WHERE product = 77;
PRAGMA integrity_check;
SELECT name, type FROM sqlite_schema WHERE type IN ('index', 'view', 'trigger') ORDER BY name;
VACUUM;
PRAGMA integrity_check;
SELECT count(*), sum(qty) FROM orders;
