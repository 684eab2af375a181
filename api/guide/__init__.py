"""The guide (使用說明) at ``/guide``: docs/guide's Markdown as HTML."""
