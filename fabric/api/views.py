from catalog.api import catalog_viewset
from fabric.models import Cable, Switch, Transceiver

SwitchViewSet = catalog_viewset(Switch)
TransceiverViewSet = catalog_viewset(Transceiver)
CableViewSet = catalog_viewset(Cable)
