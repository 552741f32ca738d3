"""The SQLite archive: schema and migrations, import, queries, Datasette metadata."""
