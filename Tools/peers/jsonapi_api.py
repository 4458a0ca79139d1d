#!/usr/bin/env python3
"""A JSON:API origin written with djangorestframework-jsonapi on a free loopback port: paging,
media types and errors as that package does them, not as this project does, for the sync tests
and the e2e.

    python3 Tools/peers/jsonapi_api.py [--items N]

Prints its base URL (http://127.0.0.1:PORT) as the first line on stdout, then serves until
killed (or for --lifetime seconds, default 600). --items N (default 120) posts, ordered by id.
Routes:

    /api/posts      JsonApiPageNumberPagination, ?page[number]=&page[size]= (20 a page, at most 100):
                    {"links": {"first", "last", "next", "prev"}, "data": [{"type": "posts",
                    "id": "1", "attributes": {"title", "body"}}, ...],
                    "meta": {"pagination": {"page", "pages", "count"}}}
                    "next" is an absolute URL, null on the last page. ?sort=-id etc. as the
                    package's OrderingFilter does.
    /api/posts/ID   GET, PATCH, PUT, DELETE one post ({"data": {...}}); POST to /api/posts makes one.

The package's own renderer and parsers only: every response is application/vnd.api+json, and a
request whose Accept admits no application/vnd.api+json (Accept: application/json, say) is
answered 406 Not Acceptable, as a real deployment does; no Accept header, */* or application/*
are fine. Its QueryParameterValidationFilter answers 400 to a query parameter that JSON:API does
not define (anything but sort, include, filter[..], fields[..], page[..]). Errors are
{"errors": [{"detail", "status", "source", "code"}]}. Django's ConditionalGetMiddleware adds an
ETag to every 200 and answers If-None-Match with 304.
"""
import argparse

from peer_serving import configure_django, serve_django

parser = argparse.ArgumentParser()
parser.add_argument("--items", type=int, default=120)
parser.add_argument("--lifetime", type=float, default=600)
args = parser.parse_args()

# The package's recommended settings (its docs' "Usage"), less the browsable API, form parsers and
# django-filter, which this peer does not need.
configure_django(
    __name__, apps=["rest_framework_json_api"], middleware=[],
    rest_framework={
        "PAGE_SIZE": 20,
        "EXCEPTION_HANDLER": "rest_framework_json_api.exceptions.exception_handler",
        "DEFAULT_PAGINATION_CLASS": "rest_framework_json_api.pagination.JsonApiPageNumberPagination",
        "DEFAULT_PARSER_CLASSES": ["rest_framework_json_api.parsers.JSONParser"],
        "DEFAULT_RENDERER_CLASSES": ["rest_framework_json_api.renderers.JSONRenderer"],
        "DEFAULT_METADATA_CLASS": "rest_framework_json_api.metadata.JSONAPIMetadata",
        "DEFAULT_FILTER_BACKENDS": ["rest_framework_json_api.filters.QueryParameterValidationFilter",
                                    "rest_framework_json_api.filters.OrderingFilter"],
    },
    JSON_API_FORMAT_TYPES="dasherize",
    JSON_API_PLURALIZE_TYPES=True,
)

from django.db import connection, models  # noqa: E402
from django.urls import include, path  # noqa: E402
from rest_framework import routers  # noqa: E402
from rest_framework_json_api import serializers, views  # noqa: E402


class Post(models.Model):
    title = models.CharField(max_length=200)
    body = models.TextField()

    class Meta:
        app_label = "peer"
        ordering = ["id"]


class PostSerializer(serializers.ModelSerializer):
    class Meta:
        model = Post
        fields = ["title", "body"]


class Posts(views.ModelViewSet):
    queryset = Post.objects.all()
    serializer_class = PostSerializer
    ordering_fields = ["id", "title"]
    http_method_names = ["get", "post", "patch", "put", "delete", "head", "options"]


router = routers.SimpleRouter(trailing_slash=False)
router.register("posts", Posts, basename="posts")
urlpatterns = [path("api/", include(router.urls))]


def seed(count):
    with connection.schema_editor() as editor:
        editor.create_model(Post)
    Post.objects.bulk_create(Post(title=f"Post {i}", body=f"Body of post {i}. 본문 {i}.") for i in range(1, count + 1))


serve_django(lambda: seed(args.items), args.lifetime)
