"""The house's date and time formats per language (``FORMAT_MODULE_PATH``), over Django's own."""
