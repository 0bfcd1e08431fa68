from django.apps import AppConfig


class SweepsConfig(AppConfig):
    name = "sweeps"
    verbose_name = "Sweeps: searches of the design space"
