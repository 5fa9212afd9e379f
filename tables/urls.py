"""Routes of the tables app under /api/v1/: floor management and hand logging.

Hand logging first: every action a croupier logs is resolved through this list, and each DRF router
route tried before it cost tens of microseconds (its pattern is looked up per language), about 1 ms in
all (issue 19). The two lists share no prefix, so the order changes nothing else.
"""

from django.urls import include, path

urlpatterns = [
    path("", include("tables.api.hands_urls")),
    path("", include("tables.api.floor_urls")),
]
