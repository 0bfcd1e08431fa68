from catalog.api import catalog_viewset
from storage.models import StorageSystem

StorageSystemViewSet = catalog_viewset(StorageSystem)
