"""Printable and exportable reports (報表) of a session: PDF settlement sheets and CSV."""
