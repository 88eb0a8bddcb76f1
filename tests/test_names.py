"""Items are named as the user sees them: label, else catalog model name, told apart when equal."""

from models.catalog import bundled_catalog
from models.project.model import ShelfNode, SwitchNode
from models.project.names import link_name, node_name, node_names


def test_label_then_model_name_then_unnamed():
    catalog = bundled_catalog()
    assert node_name(ShelfNode(id="s1", catalog_id="netapp-ds2246", drive="netapp-x447a-800gb-ssd", drive_count=24,
                               label="Shelf A"), catalog) == "Shelf A"
    assert node_name(ShelfNode(id="s1", catalog_id="netapp-ds2246", drive="netapp-x447a-800gb-ssd", drive_count=24),
                     catalog) == \
        catalog.find("netapp-ds2246").name
    assert node_name(SwitchNode(id="x", catalog_id="no-such-switch"), catalog) == "unnamed switch"


def test_equal_names_are_told_apart_and_links_use_them():
    catalog = bundled_catalog()
    model = catalog.find("netapp-ds2246").name
    nodes = [ShelfNode(id="a", catalog_id="netapp-ds2246", drive="netapp-x447a-800gb-ssd", drive_count=24),
             ShelfNode(id="b", catalog_id="netapp-ds2246", drive="netapp-x447a-800gb-ssd", drive_count=24),
             ShelfNode(id="c", catalog_id="netapp-ds2246", drive="netapp-x447a-800gb-ssd", drive_count=24,
                       label="Shelf"),
             SwitchNode(id="d", catalog_id="brocade-6510", label="Shelf")]
    names = node_names(nodes, catalog)
    assert names["a"] == f"{model} #1" and names["b"] == f"{model} #2"
    assert names["c"] == f"Shelf ({model})" and names["d"] == f"Shelf ({catalog.find('brocade-6510').name})"
    assert link_name("a", "d", names) == f"{model} #1 \u2013 Shelf ({catalog.find('brocade-6510').name})"
