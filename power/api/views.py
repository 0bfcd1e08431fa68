from catalog.api import catalog_viewset
from power.models import CoolingType, CoolingUnit, Pdu, RackType

RackTypeViewSet = catalog_viewset(RackType)
PduViewSet = catalog_viewset(Pdu)
CoolingTypeViewSet = catalog_viewset(CoolingType)
CoolingUnitViewSet = catalog_viewset(CoolingUnit)
