"""Reference list prices of the cloud options, in USD, pay as you go, for a United States region.

The catalog's cloud records have no prices; the cost comparison needs one per record, so this table gives a public
list price where one was found and marks the rest as assumptions (the figures a planner would use before a quote,
to be replaced by the project's price book, whose prices for a cloud record are over the horizon and then win).
Prices change often and differ by region: each entry says what it is and where to check it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["DISK_PRICES", "LICENCE_PRICES", "MANAGED_PRICES", "NODE_LICENCE_NOTE", "PRICE_CURRENCY", "VCPU_PRICES",
           "CloudPrice"]

PRICE_CURRENCY = "USD"
"""The currency of every reference price."""


@dataclass(frozen=True)
class CloudPrice:
    """One reference list price.

    Attributes:
        price: USD per ``per``; per: "GiB-month", "MBps-month", "vCPU-hour" or "node-hour"; kind: "published"
        (read from the provider's public page or documentation) or "assumption" (a recalled list price not checked
        against the page: verify); source: the document (title, address) and what it states.
    """

    price: float
    per: Literal["GiB-month", "MBps-month", "vCPU-hour", "node-hour"]
    kind: Literal["published", "assumption"]
    source: str

    def text(self) -> str:
        """``0.294 USD per GiB-month (published: ...)``."""
        return f"{self.price:.4g} {PRICE_CURRENCY} per {self.per} ({self.kind}: {self.source})"


_ANF = "Microsoft, 'Azure NetApp Files pricing' (azure.microsoft.com/pricing/details/netapp), pay as you go, East US"
_GCNV = "Google Cloud, 'NetApp Volumes pricing' (cloud.google.com/netapp/volumes/pricing), us-central1"
_AS_GIB = ", the unit that page prices in; applied here per provisioned GiB-month, as the storage is sized in GiB"
"""Said after a price Amazon Web Services publishes "per GB-month" for storage it sizes in GiB (FSx for NetApp ONTAP
storage capacity and EBS volume sizes are given in GiB in its documentation): the one price in both units, labelled."""
_FSX = "Amazon Web Services, 'Amazon FSx for NetApp ONTAP pricing' (aws.amazon.com/fsx/netapp-ontap/pricing), us-east-1"

MANAGED_PRICES: dict[str, tuple[CloudPrice, ...]] = {
    "azure-netapp-files-standard": (CloudPrice(
        0.000202 * 730, "GiB-month", "assumption", f"{_ANF}: about 0.000202 per GiB-hour x 730 hours"),),
    "azure-netapp-files-premium": (CloudPrice(
        0.000403 * 730, "GiB-month", "published",
        "Microsoft Learn, 'Cost model for Azure NetApp Files' (learn.microsoft.com/azure/azure-netapp-files/"
        "azure-netapp-files-cost-model), pricing example: Premium 'billed at $0.000403 per GiB/hour (pricing "
        "depending on the region)', x 730 hours"),),
    "azure-netapp-files-ultra": (CloudPrice(
        0.000538 * 730, "GiB-month", "assumption", f"{_ANF}: about 0.000538 per GiB-hour x 730 hours"),),
    "aws-fsx-ontap-multi-az-2": (
        CloudPrice(0.25, "GiB-month", "assumption", f"{_FSX}: Multi-AZ SSD storage, about 0.25 per GB-month{_AS_GIB}"),
        CloudPrice(1.20, "MBps-month", "assumption", f"{_FSX}: Multi-AZ throughput capacity, about 1.20 per "
                                                     "MBps-month"),
    ),
    "gcnv-standard": (CloudPrice(
        0.000273973 * 730, "GiB-month", "published",
        "Google Cloud, 'Google Cloud NetApp Volumes pricing' (cloud.google.com/netapp/volumes/pricing), regional "
        "price table as shown by default (November 2026): Standard "
        "'$0.000273973 / 1 gibibyte hour' pay as you go, x 730 hours"),),
    "gcnv-premium": (CloudPrice(0.30, "GiB-month", "assumption", f"{_GCNV}: Premium, about 0.30 per GiB-month"),),
    "gcnv-extreme": (CloudPrice(0.40, "GiB-month", "assumption", f"{_GCNV}: Extreme, about 0.40 per GiB-month"),),
    "gcnv-flex-file-default": (CloudPrice(0.20, "GiB-month", "assumption",
                                          f"{_GCNV}: Flex, about 0.20 per GiB-month with the default throughput"),),
}
"""Managed file services by catalog id: capacity per provisioned GiB-month, and (FSx) throughput per MBps-month."""

VCPU_PRICES: dict[str, CloudPrice] = {
    "Azure": CloudPrice(1.48 / 16, "vCPU-hour", "assumption",
                        "Microsoft, 'Linux Virtual Machines Pricing' (azure.microsoft.com/pricing/details/"
                        "virtual-machines/linux), East US: Standard_DS14_v2 about 1.48 per hour / 16 vCPU"),
    "AWS": CloudPrice(0.768 / 16, "vCPU-hour", "assumption",
                      "Amazon Web Services, 'Amazon EC2 On-Demand Pricing' (aws.amazon.com/ec2/pricing/on-demand), "
                      "us-east-1: m5.4xlarge 0.768 per hour / 16 vCPU"),
    "GCP": CloudPrice(0.39 / 8, "vCPU-hour", "assumption",
                      "Google Cloud, 'VM instance pricing' (cloud.google.com/compute/vm-instance-pricing), "
                      "us-central1: n2-standard-8 about 0.39 per hour / 8 vCPU"),
}
"""A cloud VM's compute by provider, per vCPU-hour (memory included, as the general-purpose sizes are priced): the
cited VM's hourly price / its vCPUs, unrounded, so a line recomputes from the cited price."""

_AZDISK = "Microsoft, 'Managed Disks pricing' (azure.microsoft.com/pricing/details/managed-disks), East US"
_EBS = "Amazon Web Services, 'Amazon EBS pricing' (aws.amazon.com/ebs/pricing), us-east-1"
_PD = "Google Cloud, 'Disk and image pricing' (cloud.google.com/compute/disks-image-pricing), us-central1"
DISK_PRICES: dict[tuple[str, str], CloudPrice] = {
    ("Azure", "Premium_LRS"): CloudPrice(0.132, "GiB-month", "assumption", f"{_AZDISK}: P30 (1 TiB) about 135 a month"),
    ("Azure", "PremiumV2_LRS"): CloudPrice(0.081, "GiB-month", "assumption", f"{_AZDISK}: Premium SSD v2 capacity "
                                                                            "(baseline IOPS and throughput included)"),
    ("Azure", "StandardSSD_LRS"): CloudPrice(0.075, "GiB-month", "assumption", f"{_AZDISK}: E30 (1 TiB) about 77 a "
                                                                              "month"),
    ("AWS", "gp3"): CloudPrice(0.08, "GiB-month", "assumption", f"{_EBS}: gp3 0.08 per GB-month{_AS_GIB}; the gp3 "
                                                               "baseline (3,000 IOPS, 125 MiB/s) included"),
    ("AWS", "io1"): CloudPrice(0.125, "GiB-month", "assumption", f"{_EBS}: io1 0.125 per GB-month{_AS_GIB}; "
                                                                "provisioned IOPS not counted"),
    ("AWS", "st1"): CloudPrice(0.045, "GiB-month", "assumption", f"{_EBS}: st1 0.045 per GB-month{_AS_GIB}"),
    ("GCP", "pd-balanced"): CloudPrice(0.10, "GiB-month", "assumption", f"{_PD}: balanced persistent disk"),
    ("GCP", "pd-ssd"): CloudPrice(0.17, "GiB-month", "assumption", f"{_PD}: SSD persistent disk"),
    ("GCP", "pd-standard"): CloudPrice(0.04, "GiB-month", "assumption", f"{_PD}: standard persistent disk"),
}
"""Cloud block disks by (provider, tier), per provisioned GiB-month."""

_CVO = ("NetApp, 'Cloud Volumes ONTAP pricing' (bluexp.netapp.com/pricing) and the cloud marketplaces' "
        "pay-as-you-go listings: node-based PAYGO licence, the previous generation, not sold to new customers")
NODE_LICENCE_NOTE = (
    "Cloud Volumes ONTAP's licence is priced at the node-based PAYGO rate (per node-hour), not sold to new customers; "
    "the capacity-based licence (per TiB) new customers buy has no public price: ask NetApp for a quote or enter it "
    "in a price book (NetApp, 'Licensing for Cloud Volumes ONTAP', "
    "docs.netapp.com/us-en/storage-management-cloud-volumes-ontap/azure/concept-licensing.html)")
"""The caveat every cost output gives where a Cloud Volumes ONTAP licence is priced from :data:`LICENCE_PRICES`."""
LICENCE_PRICES: dict[str, CloudPrice] = {
    "cvo-freemium": CloudPrice(0.0, "node-hour", "published", "NetApp: Freemium is free up to 500 GiB"),
    "cvo-explore": CloudPrice(0.50, "node-hour", "assumption", f"{_CVO}, Explore"),
    "cvo-standard": CloudPrice(1.00, "node-hour", "assumption", f"{_CVO}, Standard"),
    "cvo-premium": CloudPrice(1.75, "node-hour", "assumption", f"{_CVO}, Premium"),
    "cvo-premium-current": CloudPrice(1.75, "node-hour", "assumption", f"{_CVO}, Premium"),
}
"""Cloud Volumes ONTAP node-based PAYGO licences by catalog id, per node-hour (the previous generation: see
:data:`NODE_LICENCE_NOTE`)."""
