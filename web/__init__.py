"""The thin Flask front end: the JSON API and the pages."""
