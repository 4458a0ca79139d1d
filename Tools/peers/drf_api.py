#!/usr/bin/env python3
"""A Django REST framework API on a free loopback port: an origin outside the project, paginated
by DRF's own paginators, for the sync tests and the e2e.

    python3 Tools/peers/drf_api.py [--items N] [--throttle RATE] [--gzip]

Prints its base URL (http://127.0.0.1:PORT) as the first line on stdout, then serves until
killed (or for --lifetime seconds, default 600). Routes (all JSON, ordered by id):

    /api/cursor/posts/   CursorPagination       {"next", "previous", "results"}, ?cursor=
    /api/offset/posts/   LimitOffsetPagination  {"count", "next", "previous", "results"}, ?limit=&offset=
    /api/pages/posts/    PageNumberPagination   {"count", "next", "previous", "results"}, ?page=&page_size=
    /api/users/          PageNumberPagination over users keyed by "username" (string keys)
    /api/private/posts/  like /api/pages/posts/, but needs "Authorization: Bearer letmein"
    /api/limited/posts/  like /api/pages/posts/, throttled to --throttle (e.g. 5/s): 429 + Retry-After
    /api/cursor/posts/ID/  GET, PATCH, PUT, DELETE one post

Django's ConditionalGetMiddleware adds an ETag to every response and answers If-None-Match with
304, as a Django deployment that turns it on does. With --gzip, Django's GZipMiddleware also
compresses bodies for clients that send Accept-Encoding: gzip (Vary: Accept-Encoding, weak ETags).
"""
import argparse

from peer_serving import configure_django, serve_django

parser = argparse.ArgumentParser()
parser.add_argument("--items", type=int, default=1000)
parser.add_argument("--throttle", default="5/s")
parser.add_argument("--lifetime", type=float, default=600)
parser.add_argument("--gzip", action="store_true")
args = parser.parse_args()

configure_django(
    __name__, apps=[],
    middleware=["django.middleware.gzip.GZipMiddleware"] if args.gzip else [],
    rest_framework={
        "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
        "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
        "DEFAULT_THROTTLE_RATES": {"limited": args.throttle},
    },
    CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}},
)

from django.db import connection, models  # noqa: E402
from django.urls import include, path  # noqa: E402
from rest_framework import pagination, permissions, routers, serializers, throttling, viewsets  # noqa: E402


class Post(models.Model):
    title = models.CharField(max_length=200)
    body = models.TextField()
    author = models.CharField(max_length=100)

    class Meta:
        app_label = "peer"
        ordering = ["id"]


class Member(models.Model):
    username = models.CharField(max_length=50, unique=True)
    name = models.CharField(max_length=100)

    class Meta:
        app_label = "peer"
        ordering = ["id"]


class PostSerializer(serializers.ModelSerializer):
    class Meta:
        model = Post
        fields = ["id", "title", "body", "author"]


class MemberSerializer(serializers.ModelSerializer):
    class Meta:
        model = Member
        fields = ["username", "name"]


class Cursor(pagination.CursorPagination):
    ordering = "id"
    page_size = 20
    page_size_query_param = "page_size"


class Offset(pagination.LimitOffsetPagination):
    default_limit = 20


class Pages(pagination.PageNumberPagination):
    page_size = 20
    page_size_query_param = "page_size"


class BearerToken(permissions.BasePermission):
    def has_permission(self, request, view):
        return request.headers.get("Authorization") == "Bearer letmein"


class Limited(throttling.SimpleRateThrottle):
    scope = "limited"

    def get_cache_key(self, request, view):
        return "limited"


def view(pagination_class, **extra):
    return type(pagination_class.__name__ + "Posts", (viewsets.ModelViewSet,), {
        "queryset": Post.objects.all(), "serializer_class": PostSerializer, "pagination_class": pagination_class, **extra,
    })


router = routers.SimpleRouter()
router.register("cursor/posts", view(Cursor), basename="cursor")
router.register("offset/posts", view(Offset), basename="offset")
router.register("pages/posts", view(Pages), basename="pages")
router.register("private/posts", view(Pages, permission_classes=[BearerToken]), basename="private")
router.register("limited/posts", view(Pages, throttle_classes=[Limited]), basename="limited")
router.register("users", type("Members", (viewsets.ReadOnlyModelViewSet,), {
    "queryset": Member.objects.all(), "serializer_class": MemberSerializer, "pagination_class": Pages,
    "lookup_field": "username"}), basename="users")
urlpatterns = [path("api/", include(router.urls))]


def seed(count):
    with connection.schema_editor() as editor:
        editor.create_model(Post)
        editor.create_model(Member)
    Post.objects.bulk_create(
        Post(title=f"Post {i} 게시물", body=f"Body of post {i}. 본문 {i}.", author=["kim", "lee", "park"][i % 3])
        for i in range(1, count + 1))
    Member.objects.bulk_create(Member(username=f"user-{i:04d}", name=f"Member {i}") for i in range(1, count // 10 + 2))


serve_django(lambda: seed(args.items), args.lifetime)
