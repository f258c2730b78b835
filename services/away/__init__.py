"""Away from the site: Web Push to a player's devices, mail to a verified address, password reset by mail, and the
links and kept secrets they need (``service.py`` says what reaches whom, and when)."""
