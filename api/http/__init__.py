"""What every resource shares: tokens (``auth``), the database (``db``), errors, limits and rate limits, the
reader's language, text checks, path converters, downloads, the API docs and health."""
