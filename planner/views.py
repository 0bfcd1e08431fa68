from django.shortcuts import render

from planner.models import System


def home(request):
    """The catalog's GPU systems and the ways into the planner."""
    systems = System.objects.all()
    return render(request, "planner/home.html", {"systems": systems})
