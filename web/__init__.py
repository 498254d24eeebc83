"""Flask application: the table display, the Mayor console and every phone, live over Server-Sent Events."""
