"""DRF's own messages in the house's German (issue 18, break test): the staff are addressed as "Sie".

Django REST framework ships a German catalogue that speaks to the reader with "du" ("Stelle sicher, dass
...", "Gib ... ein", "Nutze ...") and leaves some messages in English ("No data provided"). The project's
catalogue (``LOCALE_PATHS``) takes precedence over every app's, DRF's included, so each message our API can
produce is restated here, marked with ``gettext_noop`` for ``makemessages``, and translated in
``locale/de/LC_MESSAGES/django.po`` in the Sie form. DRF formats the text itself (``{max_length}`` ...):
the msgids are DRF's own, character for character. ``tests/casino/test_drf_messages.py`` checks that no DRF
German text in "du" form is left without our translation.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop

#: DRF's messages (fields, serializers, relations, exceptions, authentication, validators) our API can answer.
DRF_MESSAGES = (
    gettext_noop("This field is required."),
    gettext_noop("This field may not be null."),
    gettext_noop("This field may not be blank."),
    gettext_noop("Must be a valid boolean."),
    gettext_noop("Not a valid string."),
    gettext_noop("Ensure this field has no more than {max_length} characters."),
    gettext_noop("Ensure this field has at least {min_length} characters."),
    gettext_noop("Enter a valid email address."),
    gettext_noop("This value does not match the required pattern."),
    gettext_noop('Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.'),
    gettext_noop('Enter a valid "slug" consisting of Unicode letters, numbers, underscores, or hyphens.'),
    gettext_noop("Enter a valid URL."),
    gettext_noop("Must be a valid UUID."),
    gettext_noop("Enter a valid IPv4 or IPv6 address."),
    gettext_noop("A valid integer is required."),
    gettext_noop("A valid number is required."),
    gettext_noop("Ensure this value is less than or equal to {max_value}."),
    gettext_noop("Ensure this value is greater than or equal to {min_value}."),
    gettext_noop("String value too large."),
    gettext_noop("Ensure that there are no more than {max_digits} digits in total."),
    gettext_noop("Ensure that there are no more than {max_decimal_places} decimal places."),
    gettext_noop("Ensure that there are no more than {max_whole_digits} digits before the decimal point."),
    gettext_noop("Datetime has wrong format. Use one of these formats instead: {format}."),
    gettext_noop("Expected a datetime but got a date."),
    gettext_noop('Invalid datetime for the timezone "{timezone}".'),
    gettext_noop("Datetime value out of range."),
    gettext_noop("Date has wrong format. Use one of these formats instead: {format}."),
    gettext_noop("Expected a date but got a datetime."),
    gettext_noop("Time has wrong format. Use one of these formats instead: {format}."),
    gettext_noop("Duration has wrong format. Use one of these formats instead: {format}."),
    gettext_noop('"{input}" is not a valid choice.'),
    gettext_noop('Expected a list of items but got type "{input_type}".'),
    gettext_noop("This selection may not be empty."),
    gettext_noop("This list may not be empty."),
    gettext_noop("Ensure this field has at least {min_length} elements."),
    gettext_noop("Ensure this field has no more than {max_length} elements."),
    gettext_noop('Expected a dictionary of items but got type "{input_type}".'),
    gettext_noop("This dictionary may not be empty."),
    gettext_noop("Value must be valid JSON."),
    gettext_noop("No file was submitted."),
    gettext_noop("The submitted data was not a file. Check the encoding type on the form."),
    gettext_noop("Ensure this filename has at most {max_length} characters (it has {length})."),
    gettext_noop("Upload a valid image. The file you uploaded was either not an image or a corrupted image."),
    gettext_noop("Invalid data. Expected a dictionary, but got {datatype}."),
    gettext_noop('Invalid pk "{pk_value}" - object does not exist.'),
    gettext_noop("Incorrect type. Expected pk value, received {data_type}."),
    gettext_noop("Object with {slug_name}={value} does not exist."),
    gettext_noop("Invalid value."),
    gettext_noop("Invalid input."),
    gettext_noop("Malformed request."),
    gettext_noop("Incorrect authentication credentials."),
    gettext_noop("Authentication credentials were not provided."),
    gettext_noop("You do not have permission to perform this action."),
    gettext_noop("Not found."),
    gettext_noop('Method "{method}" not allowed.'),
    gettext_noop("Could not satisfy the request Accept header."),
    gettext_noop("Request was throttled."),
    gettext_noop("Expected available in {wait} second."),
    gettext_noop("Expected available in {wait} seconds."),
    gettext_noop("This field must be unique."),
    gettext_noop("The fields {field_names} must make a unique set."),
    gettext_noop("Invalid token header. No credentials provided."),
    gettext_noop("Invalid token header. Token string should not contain spaces."),
    gettext_noop("Invalid token header. Token string should not contain invalid characters."),
    gettext_noop("Invalid basic header. No credentials provided."),
    gettext_noop("Invalid basic header. Credentials string should not contain spaces."),
    gettext_noop("Invalid basic header. Credentials not correctly base64 encoded."),
    gettext_noop("Invalid username/password."),
    gettext_noop("Unable to log in with provided credentials."),
    gettext_noop('Must include "username" and "password".'),
    gettext_noop("Invalid page."),
)

#: DRF's answer to a JSON ``null`` body (``serializer.errors``): an ``ErrorDetail`` it never translates.
NO_DATA = "No data provided"
NO_DATA_TEXT = gettext_noop("No data provided: send the request body as a JSON object.")


def drf_detail_translated(detail: Any) -> Any:
    """``detail`` (a DRF error detail: dicts, lists, ``ErrorDetail`` strings) with DRF's untranslated
    "No data provided" replaced by :data:`NO_DATA_TEXT` in the active language, its ``code`` kept; anything
    else unchanged."""
    from rest_framework.exceptions import ErrorDetail

    if isinstance(detail, dict):
        return {key: drf_detail_translated(value) for key, value in detail.items()}
    if isinstance(detail, list):
        return [drf_detail_translated(value) for value in detail]
    if isinstance(detail, str) and str(detail) == NO_DATA:
        return ErrorDetail(gettext(NO_DATA_TEXT), code=getattr(detail, "code", "null"))
    return detail
