from fabric.models import Cable, Switch, Transceiver
from catalog.api import catalog_viewset

SwitchViewSet = catalog_viewset(Switch)
TransceiverViewSet = catalog_viewset(Transceiver)
CableViewSet = catalog_viewset(Cable)
